/**
 * The load bench's client, a process of its own (`bench/load.ts` starts it):
 * `concurrency` loops, each sending streaming chat requests to `target` one
 * after another for `seconds`, reading every body whole. Every body is
 * compared with the reference (the first body, call ids aside). Prints one
 * JSON line: requests, failed, corrupted, latencies (ms, sorted).
 */
const [target, concurrencyText, secondsText] = process.argv.slice(2)
const concurrency = Number(concurrencyText)
const seconds = Number(secondsText)
const body = JSON.stringify({ model: 'cherry-14747-captured-sse-deltas', stream: true, messages: [{ role: 'user', content: 'go' }] })

/** A body with what differs between replies made fixed: the random call ids, the creation time. */
const normalized = (text: string): string => text.replace(/"call_[A-Za-z0-9]+"/g, '"call_x"').replace(/"created":\d+/g, '"created":0')

async function once(): Promise<string> {
  const response = await fetch(`${target}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  if (response.status !== 200) throw new Error(`status ${response.status}`)
  return normalized(await response.text())
}

const reference = await once()
const latencies: number[] = []
let failed = 0
let corrupted = 0
const deadline = performance.now() + seconds * 1000
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (performance.now() < deadline) {
      const started = performance.now()
      try {
        if ((await once()) !== reference) corrupted++
        latencies.push(performance.now() - started)
      } catch {
        failed++
      }
    }
  }),
)
latencies.sort((a, b) => a - b)
console.log(JSON.stringify({ requests: latencies.length + failed, failed, corrupted, latencies }))

export {}
