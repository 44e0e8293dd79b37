import { Registry } from 'prom-client'
import { describe, expect, it } from 'vitest'
import { SeriesCounter, SeriesHistogram } from './metric-series.js'

describe('series metrics rendered by prom-client', () => {
  it('counts per label values', async () => {
    const registry = new Registry()
    const counter = new SeriesCounter('t_total', 'help text', registry)
    counter.child('a', () => ({ route: 'a' })).inc()
    counter.child('a', () => ({ route: 'a' })).inc()
    counter.child('b', () => ({ route: 'b"q' })).inc()
    const text = await registry.metrics()
    expect(text).toContain('# TYPE t_total counter')
    expect(text).toContain('t_total{route="a"} 2')
    expect(text).toContain('t_total{route="b\\"q"} 1')
  })

  it('keeps cumulative buckets (a value on a bound counts in it), sum and count', async () => {
    const registry = new Registry()
    const histogram = new SeriesHistogram('t_seconds', 'help text', registry, [0.1, 1])
    const series = histogram.child('x', () => ({ flow: 'x' }))
    for (const value of [0.05, 0.1, 0.5, 2]) series.observe(value)
    const text = await registry.metrics()
    expect(text).toContain('# TYPE t_seconds histogram')
    expect(text).toContain('t_seconds_bucket{flow="x",le="0.1"} 2')
    expect(text).toContain('t_seconds_bucket{flow="x",le="1"} 3')
    expect(text).toContain('t_seconds_bucket{flow="x",le="+Inf"} 4')
    expect(text).toContain('t_seconds_sum{flow="x"} 2.65')
    expect(text).toContain('t_seconds_count{flow="x"} 4')
  })

  it('refuses a second metric of the same name in one registry', () => {
    const registry = new Registry()
    new SeriesCounter('dup_total', 'help', registry)
    expect(() => new SeriesCounter('dup_total', 'help', registry)).toThrow()
  })
})
