/**
 * `GET /metrics` of `dsml-streams serve`: an OpenTelemetry `MeterProvider`
 * (`@opentelemetry/sdk-metrics`) read by the Prometheus exporter
 * (`@opentelemetry/exporter-prometheus`), its meter given to the gateway,
 * which records the repair's counters and its own histograms through it.
 * The two packages are optional dependencies: without them, the gateway runs
 * and `/metrics` says how to get them. Node glue.
 */
import type { DsmlMeter } from '../dsml/diagnostic-counters.ts'

export interface MetricsEndpoint {
  /** The meter the gateway records through (undefined when the packages are missing). */
  meter: DsmlMeter | undefined
  /** The answer to `GET /metrics`: the Prometheus text format, or a 501 saying what to install. */
  serve(): Promise<Response>
}

const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8'

/** The provider, the exporter and the endpoint, or an endpoint that says what is missing. */
export async function createMetricsEndpoint(): Promise<MetricsEndpoint> {
  let sdk: typeof import('@opentelemetry/sdk-metrics')
  let prometheus: typeof import('@opentelemetry/exporter-prometheus')
  try {
    ;[sdk, prometheus] = await Promise.all([import('@opentelemetry/sdk-metrics'), import('@opentelemetry/exporter-prometheus')])
  } catch {
    const message = 'GET /metrics needs the optional dependencies @opentelemetry/sdk-metrics and @opentelemetry/exporter-prometheus: npm install them beside dsml-streams.\n'
    return { meter: undefined, serve: async () => new Response(message, { status: 501, headers: { 'content-type': 'text/plain; charset=utf-8' } }) }
  }
  // No server of its own: the gateway's listener answers /metrics.
  const exporter = new prometheus.PrometheusExporter({ preventServerStart: true })
  const provider = new sdk.MeterProvider({ readers: [exporter] })
  // No target_info: the resource describes this process (its command line among it), which is nobody's business here.
  const serializer = new prometheus.PrometheusSerializer(undefined, false, undefined, true)
  return {
    meter: provider.getMeter('dsml-streams'),
    async serve() {
      const { resourceMetrics } = await exporter.collect()
      return new Response(serializer.serialize(resourceMetrics), { headers: { 'content-type': PROMETHEUS_TEXT } })
    },
  }
}
