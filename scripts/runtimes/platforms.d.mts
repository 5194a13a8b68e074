// Types of platforms.mjs, for the TypeScript tests that import it.
export declare const CHROMIUM: string
export declare const CHROMIUM_LAUNCH: { executablePath: string; args: string[] }
export declare const EDGE_CONDITIONS: string[]
export declare function workerCompatibilityDate(): string
