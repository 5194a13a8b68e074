/**
 * The gateway's own measurements, through the same OpenTelemetry `meter` as
 * the repair's counters (`diagnostic-counters.ts`): requests by route,
 * method and status (a counter, and `http.server.request.duration`), and the
 * upstream's time to its first byte and to the end of its body, as
 * histograms in seconds. Attributes hold the route's name, the method and the status only:
 * never a path as the client wrote it, nor anything of a body.
 */
import type { DsmlMeter, MetricAttributes } from '../dsml/diagnostic-counters.ts'

/** What a request is, for the attributes: a dialect's route, the health page, or anything passed through. */
export type RouteLabel = 'chat-completions' | 'anthropic-messages' | 'responses' | 'health' | 'pass-through'

/** Methods named as they are; any other is `_OTHER` (OpenTelemetry's rule: a label's values stay few). */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])
/** Bucket bounds in seconds, from 5 ms to 5 min: model calls are slow. */
const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300]

export class GatewayMetrics {
  #requests
  #requestDuration
  #firstByte
  #upstream

  constructor(meter: DsmlMeter) {
    const advice = { explicitBucketBoundaries: SECONDS }
    this.#requests = meter.createCounter('dsml.gateway.requests', { description: 'Requests to the gateway, by route, method and status', unit: '{request}' })
    this.#requestDuration = meter.createHistogram('http.server.request.duration', { description: 'Requests to the gateway, by route and status: time until the response began', unit: 's', advice })
    this.#firstByte = meter.createHistogram('dsml.upstream.time_to_first_byte', { description: "Time from sending a request upstream to its response's first body byte", unit: 's', advice })
    this.#upstream = meter.createHistogram('dsml.upstream.duration', { description: "Time from sending a request upstream to the end of its response's body", unit: 's', advice })
  }

  /** One request answered: its route, method and status, and how long until its response began. */
  request(route: RouteLabel, method: string, status: number, startedAt: number): void {
    const attributes: MetricAttributes = { 'http.route': route, 'http.request.method': KNOWN_METHODS.has(method) ? method : '_OTHER', 'http.response.status_code': status }
    this.#requests.add(1, attributes)
    this.#requestDuration.record((performance.now() - startedAt) / 1000, attributes)
  }

  /** The upstream's response, its body timed from `sentAt`: the first byte, and the end (a body cancelled before it has no end). */
  timed(response: Response, route: RouteLabel, sentAt: number): Response {
    const body = response.body
    const attributes: MetricAttributes = { 'http.route': route }
    let first = true
    const firstByte = (): void => {
      if (!first) return
      first = false
      this.#firstByte.record((performance.now() - sentAt) / 1000, attributes)
    }
    if (body === null) {
      firstByte()
      this.#upstream.record((performance.now() - sentAt) / 1000, attributes)
      return response
    }
    const timed = body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform: (chunk, controller) => {
          firstByte()
          controller.enqueue(chunk)
        },
        flush: () => {
          firstByte()
          this.#upstream.record((performance.now() - sentAt) / 1000, attributes)
        },
      }),
    )
    return new Response(timed, { status: response.status, statusText: response.statusText, headers: response.headers })
  }
}
