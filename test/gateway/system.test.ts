/** Health, readiness, metrics and request ids. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startGateway, type TestGateway } from '../helpers/gateway.js'
import { publicProject } from './fixtures.js'

let gw: TestGateway
beforeAll(async () => {
  gw = await startGateway(publicProject)
})
afterAll(() => gw.close())

describe('system endpoints', () => {
  it('answers /healthz and /readyz', async () => {
    expect((await gw.json('/healthz')).body).toEqual({ status: 'ok' })
    expect(await gw.json('/readyz')).toMatchObject({
      status: 200,
      body: { status: 'ready', revision: 1 },
    })
  })

  it('exposes Prometheus metrics by application, stage, endpoint and status, and flow durations', async () => {
    await gw.inject('/shop/prod/echo?n=1')
    await gw.inject('/shop/prod/echo?n=x')
    const response = await gw.inject('/metrics')
    expect(response.headers['content-type']).toContain('text/plain')
    expect(response.body).toContain(
      'flowgate_http_requests_total{surface="business",application="shop",stage="prod",endpoint="echo-get",status="200"}',
    )
    expect(response.body).toContain('status="400"')
    expect(response.body).toContain('flowgate_http_request_duration_seconds_bucket{')
    expect(response.body).toContain(
      'flowgate_flow_run_duration_seconds_count{flow="echo",trigger="http",outcome="succeeded"}',
    )
  })

  it('never takes metric labels from an unknown URL', async () => {
    await gw.inject('/attacker-chosen-name/x/y')
    expect((await gw.inject('/metrics')).body).not.toContain('attacker-chosen-name')
  })

  it('gives every response an x-request-id, echoing a sane one from the request', async () => {
    expect((await gw.inject('/healthz')).headers['x-request-id']).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    )
    expect(
      (await gw.inject({ url: '/nope', headers: { 'x-request-id': 'abc-123' } })).headers[
        'x-request-id'
      ],
    ).toBe('abc-123')
    expect(
      (await gw.inject({ url: '/healthz', headers: { 'x-request-id': 'bad id\twith tab' } }))
        .headers['x-request-id'],
    ).not.toContain('bad')
  })

  it('logs one line per request with method, route, status, duration and execution id', async () => {
    const response = await gw.inject({
      url: '/shop/prod/echo?n=2',
      headers: { 'x-request-id': 'log-line-1' },
    })
    const line = gw.logs
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.reqId === 'log-line-1' && l.msg === 'request')
    expect(line).toMatchObject({
      method: 'GET',
      route: 'shop/prod/echo-get',
      status: 200,
      executionId: response.headers['x-execution-id'],
    })
    expect(typeof line?.durationMs).toBe('number')
  })
})
