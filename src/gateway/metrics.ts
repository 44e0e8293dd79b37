/**
 * Prometheus metrics, in a registry of this server's own (no process-wide default registry):
 * requests by surface, application, stage, endpoint and status; request latency; flow run
 * durations by flow, trigger and outcome. Labels only ever take configured names (never raw
 * URL parts), so a hostile client cannot grow the series without bound.
 */
import { Registry, collectDefaultMetrics } from 'prom-client'
import { SeriesCounter, SeriesHistogram } from './metric-series.js'

export interface RequestLabels {
  readonly surface: 'business' | 'trigger' | 'admin' | 'system'
  readonly application: string
  readonly stage: string
  readonly endpoint: string
}

export class GatewayMetrics {
  readonly registry = new Registry()
  private readonly requests: SeriesCounter
  private readonly latency: SeriesHistogram
  private readonly runs: SeriesHistogram

  constructor(options: { processMetrics?: boolean } = {}) {
    this.requests = new SeriesCounter(
      'flowgate_http_requests_total',
      'HTTP requests answered, by surface, application, stage, endpoint and status',
      this.registry,
    )
    this.latency = new SeriesHistogram(
      'flowgate_http_request_duration_seconds',
      'Time from request to response',
      this.registry,
      [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    )
    this.runs = new SeriesHistogram(
      'flowgate_flow_run_duration_seconds',
      'Duration of flow runs, by flow, trigger and outcome',
      this.registry,
      [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1, 5, 30],
    )
    if (options.processMetrics)
      collectDefaultMetrics({ register: this.registry, prefix: 'flowgate_' })
  }

  request(labels: RequestLabels, status: number, seconds: number): void {
    const key = `${labels.surface}\u0000${labels.application}\u0000${labels.stage}\u0000${labels.endpoint}`
    this.requests
      .child(`${key}\u0000${status}`, () => ({ ...labels, status: String(status) }))
      .inc()
    this.latency.child(key, () => ({ ...labels })).observe(seconds)
  }

  flowRun(flow: string, trigger: string, outcome: 'succeeded' | 'failed', seconds: number): void {
    this.runs
      .child(`${flow}\u0000${trigger}\u0000${outcome}`, () => ({ flow, trigger, outcome }))
      .observe(seconds)
  }
}
