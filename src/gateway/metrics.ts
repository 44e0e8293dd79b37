/**
 * Prometheus metrics, in a registry of this server's own (no process-wide default registry):
 * requests by surface, application, stage, endpoint and status; request latency; flow run
 * durations by flow, trigger and outcome. Labels only ever take configured names (never raw
 * URL parts), so a hostile client cannot grow the series without bound.
 */
import { Registry, collectDefaultMetrics } from 'prom-client'
import {
  SeriesCounter,
  SeriesHistogram,
  type CounterSeries,
  type HistogramSeries,
} from './metric-series.js'
import type { RequestNotes } from './http-types.js'

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

  // The series of a request, found by its notes: business routes share one notes object per
  // deployment, so the usual request finds its series without building a key.
  private readonly byNotes = new WeakMap<RequestNotes, RouteSeries>()
  // Flow runs: series by flow, then trigger, then outcome, without a key per run.
  private readonly byFlow = new Map<string, Map<string, Map<string, HistogramSeries>>>()

  request(notes: RequestNotes, status: number, seconds: number): void {
    let route = this.byNotes.get(notes)
    if (route === undefined) {
      const labels = {
        surface: notes.surface,
        application: notes.application,
        stage: notes.stage,
        endpoint: notes.endpoint,
      }
      const key = `${labels.surface}\u0000${labels.application}\u0000${labels.stage}\u0000${labels.endpoint}`
      route = { key, labels, latency: this.latency.child(key, () => labels), counts: new Map() }
      this.byNotes.set(notes, route)
    }
    let count = route.counts.get(status)
    if (count === undefined) {
      const { labels } = route
      count = this.requests.child(`${route.key}\u0000${status}`, () => ({
        ...labels,
        status: String(status),
      }))
      route.counts.set(status, count)
    }
    count.inc()
    route.latency.observe(seconds)
  }

  flowRun(flow: string, trigger: string, outcome: 'succeeded' | 'failed', seconds: number): void {
    let byTrigger = this.byFlow.get(flow)
    if (byTrigger === undefined)
      this.byFlow.set(flow, (byTrigger = new Map<string, Map<string, HistogramSeries>>()))
    let byOutcome = byTrigger.get(trigger)
    if (byOutcome === undefined)
      byTrigger.set(trigger, (byOutcome = new Map<string, HistogramSeries>()))
    let series = byOutcome.get(outcome)
    if (series === undefined) {
      series = this.runs.child(`${flow}\u0000${trigger}\u0000${outcome}`, () => ({
        flow,
        trigger,
        outcome,
      }))
      byOutcome.set(outcome, series)
    }
    series.observe(seconds)
  }
}

interface RouteSeries {
  readonly key: string
  readonly labels: Readonly<Record<string, string>>
  readonly latency: HistogramSeries
  readonly counts: Map<number, CounterSeries>
}
