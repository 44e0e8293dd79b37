/**
 * Counters and histograms for the request path, rendered by prom-client's registry.
 *
 * prom-client converts, validates and hashes the labels of every `inc` and `observe`, even on
 * a child bound to its labels: 1.6 µs per request for our three metrics (measured). Here a
 * series is found once by its label values and then updated in place (a few ns); prom-client
 * still renders the exposition text (names, escaping, format) from `get()`, as it does for its
 * own metrics.
 */
import type { Metric, Registry } from 'prom-client'

type Labels = Readonly<Record<string, string>>

/** What prom-client's registry reads from a metric to render it. */
interface Rendered {
  readonly name: string
  readonly help: string
  readonly type: 'counter' | 'histogram'
  readonly aggregator: 'sum'
  readonly values: { labels: Record<string, string | number>; value: number; metricName?: string }[]
}

export class CounterSeries {
  value = 0
  constructor(readonly labels: Labels) {}
  inc(): void {
    this.value++
  }
}

export class HistogramSeries {
  readonly counts: Float64Array
  sum = 0
  count = 0
  constructor(
    readonly labels: Labels,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length)
  }

  observe(value: number): void {
    const { bounds, counts } = this
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]!) {
        counts[i]!++
        break
      }
    }
    this.sum += value
    this.count++
  }
}

abstract class SeriesMetric<S extends { labels: Labels }> {
  readonly aggregator = 'sum'
  protected readonly series = new Map<string, S>()

  constructor(
    readonly name: string,
    readonly help: string,
    registry: Registry,
  ) {
    // prom-client renders any metric with a name, a type and get(): registered as its own.
    registry.registerMetric(this as unknown as Metric)
  }

  /** The series of these label values; `key` identifies them (callers build it cheaply). */
  protected find(key: string, labels: () => Labels, create: (labels: Labels) => S): S {
    let found = this.series.get(key)
    if (found === undefined) {
      found = create(labels())
      this.series.set(key, found)
    }
    return found
  }
}

export class SeriesCounter extends SeriesMetric<CounterSeries> {
  readonly type = 'counter'

  child(key: string, labels: () => Labels): CounterSeries {
    return this.find(key, labels, (l) => new CounterSeries(l))
  }

  get(): Promise<Rendered> {
    const values = [...this.series.values()].map((s) => ({
      labels: { ...s.labels },
      value: s.value,
    }))
    return Promise.resolve({
      name: this.name,
      help: this.help,
      type: 'counter',
      aggregator: 'sum',
      values,
    })
  }
}

export class SeriesHistogram extends SeriesMetric<HistogramSeries> {
  readonly type = 'histogram'

  constructor(
    name: string,
    help: string,
    registry: Registry,
    private readonly bounds: readonly number[],
  ) {
    super(name, help, registry)
  }

  child(key: string, labels: () => Labels): HistogramSeries {
    return this.find(key, labels, (l) => new HistogramSeries(l, this.bounds))
  }

  get(): Promise<Rendered> {
    const values: Rendered['values'] = []
    const bucket = `${this.name}_bucket`
    for (const s of this.series.values()) {
      let cumulative = 0
      this.bounds.forEach((bound, i) => {
        cumulative += s.counts[i]!
        values.push({ labels: { ...s.labels, le: bound }, value: cumulative, metricName: bucket })
      })
      values.push(
        { labels: { ...s.labels, le: '+Inf' }, value: s.count, metricName: bucket },
        { labels: { ...s.labels }, value: s.sum, metricName: `${this.name}_sum` },
        { labels: { ...s.labels }, value: s.count, metricName: `${this.name}_count` },
      )
    }
    return Promise.resolve({
      name: this.name,
      help: this.help,
      type: 'histogram',
      aggregator: 'sum',
      values,
    })
  }
}
