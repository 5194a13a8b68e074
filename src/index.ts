export * from './dsml/index.ts'
