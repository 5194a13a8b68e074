/**
 * `GET /metrics` of `dsml-streams serve` (src/cli/metrics-endpoint.ts; issue
 * "beyond recovery", part 3): scraped from the built command over the replay
 * of real captures, and read with a Prometheus text-format parser. The
 * repair's counters and the gateway's histograms are there; no label holds
 * the request's text or a tool's arguments.
 */
import parsePrometheusTextFormat from 'parse-prometheus-text-format'
import { afterAll, expect, test } from 'vitest'
import { bin, CHERRY_REQUEST, startServing, stopAll } from '../support/processes.ts'

afterAll(stopAll)

interface Family {
  name: string
  type: string
  metrics: Array<{ value?: string; labels?: Record<string, string>; buckets?: Record<string, string>; count?: string }>
}

test('the replay scraped: counters and histograms in the Prometheus text format, parsed; nothing of the request in a label', async () => {
  const served = await startServing(process.execPath, [bin, 'serve', '--port', '0'])
  const secret = 'please list the files in /srv/secret-project-1234'
  const request = JSON.parse(CHERRY_REQUEST.body as string) as { messages: Array<{ content: string }> }
  request.messages[0]!.content = secret
  const answer = await (await fetch(`${served.url}/v1/chat/completions`, { ...CHERRY_REQUEST, body: JSON.stringify(request) })).text()
  expect(answer).toContain('tool_calls')
  await (await fetch(`${served.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'x', max_tokens: 9, stream: true, messages: [{ role: 'user', content: secret }] }) })).text()
  const response = await fetch(`${served.url}/metrics`)
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toMatch(/^text\/plain/)
  const text = await response.text()
  const families = parsePrometheusTextFormat(text) as Family[]
  const byName = new Map(families.map((family) => [family.name, family]))
  // Cherry's capture holds two calls; the Messages route's default capture at least one more.
  expect(Number(byName.get('dsml_calls_recovered_total')?.metrics[0]?.value)).toBeGreaterThanOrEqual(3)
  expect(Number(byName.get('dsml_leaks_total')?.metrics[0]?.value)).toBe(2)
  expect(Number(byName.get('dsml_markup_removed_total')?.metrics[0]?.value)).toBeGreaterThan(100)
  const requests = byName.get('dsml_gateway_requests_total')!
  expect(requests.type).toBe('COUNTER')
  expect(requests.metrics.map((metric) => [metric.labels?.http_route, metric.labels?.http_request_method, metric.labels?.http_response_status_code, metric.value])).toEqual([
    ['chat-completions', 'POST', '200', '1'],
    ['anthropic-messages', 'POST', '200', '1'],
  ])
  expect(byName.get('http_server_request_duration')?.type).toBe('HISTOGRAM')
  for (const name of ['dsml_upstream_time_to_first_byte', 'dsml_upstream_duration']) {
    const family = byName.get(name)
    expect(family?.type, name).toBe('HISTOGRAM')
    expect(Object.keys(family!.metrics[0]!.buckets ?? {}), name).toContain('+Inf')
  }
  expect(text).not.toContain('secret')
  expect(text).not.toContain('target_info')
})
