/**
 * Prometheus metrics, in a registry of this server's own (no process-wide default registry):
 * requests by surface, application, stage, endpoint and status; request latency; flow run
 * durations by flow, trigger and outcome. Labels only ever take configured names (never raw
 * URL parts), so a hostile client cannot grow the series without bound.
 */
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client'

export interface RequestLabels {
  readonly surface: 'business' | 'trigger' | 'admin' | 'system'
  readonly application: string
  readonly stage: string
  readonly endpoint: string
}

export class GatewayMetrics {
  readonly registry = new Registry()
  private readonly requests: Counter<'surface' | 'application' | 'stage' | 'endpoint' | 'status'>
  private readonly latency: Histogram<'surface' | 'application' | 'stage' | 'endpoint'>
  private readonly runs: Histogram<'flow' | 'trigger' | 'outcome'>

  constructor(options: { processMetrics?: boolean } = {}) {
    const registers = [this.registry]
    this.requests = new Counter({
      name: 'flowgate_http_requests_total',
      help: 'HTTP requests answered, by surface, application, stage, endpoint and status',
      labelNames: ['surface', 'application', 'stage', 'endpoint', 'status'],
      registers,
    })
    this.latency = new Histogram({
      name: 'flowgate_http_request_duration_seconds',
      help: 'Time from request to response',
      labelNames: ['surface', 'application', 'stage', 'endpoint'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    })
    this.runs = new Histogram({
      name: 'flowgate_flow_run_duration_seconds',
      help: 'Duration of flow runs, by flow, trigger and outcome',
      labelNames: ['flow', 'trigger', 'outcome'],
      buckets: [
        0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1, 5, 30,
      ],
      registers,
    })
    if (options.processMetrics)
      collectDefaultMetrics({ register: this.registry, prefix: 'flowgate_' })
  }

  // Children by label values: prom-client hashes and validates labels on every call
  // otherwise. The values come from the configuration only, so these maps stay small.
  private readonly requestChildren = new Map<
    string,
    { count: Counter.Internal; latency: Histogram.Internal<string> }
  >()
  private readonly runChildren = new Map<string, Histogram.Internal<string>>()

  request(labels: RequestLabels, status: number, seconds: number): void {
    const key = `${labels.surface}\u0000${labels.application}\u0000${labels.stage}\u0000${labels.endpoint}\u0000${status}`
    let child = this.requestChildren.get(key)
    if (child === undefined) {
      child = {
        count: this.requests.labels({ ...labels, status: String(status) }),
        latency: this.latency.labels({ ...labels }),
      }
      this.requestChildren.set(key, child)
    }
    child.count.inc()
    child.latency.observe(seconds)
  }

  flowRun(flow: string, trigger: string, outcome: 'succeeded' | 'failed', seconds: number): void {
    const key = `${flow}\u0000${trigger}\u0000${outcome}`
    let child = this.runChildren.get(key)
    if (child === undefined) {
      child = this.runs.labels({ flow, trigger, outcome })
      this.runChildren.set(key, child)
    }
    child.observe(seconds)
  }
}
