/** SPEC 4.3: input mapping from query, body and path; conversion; implicit inputs; wraps. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { settle, startGateway, type TestGateway } from '../helpers/gateway.js'
import { publicProject } from './fixtures.js'

let gw: TestGateway
beforeAll(async () => {
  gw = await startGateway(publicProject)
})
afterAll(() => gw.close())

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  gw.json({
    method: 'POST',
    url,
    payload: JSON.stringify(payload),
    headers: { 'content-type': 'application/json', ...headers },
  })

describe('inputs', () => {
  it('reads GET inputs from the query string, converting text to the declared types', async () => {
    const { body } = await gw.json('/shop/prod/echo?n=3&flag=true&list=%5B1%2C2%5D&text=hi%20there')
    expect(body).toEqual({ got: { n: 3, flag: true, list: [1, 2], text: 'hi there' } })
  })

  it('reads DELETE inputs from the query string too', async () => {
    expect((await gw.json({ method: 'DELETE', url: '/shop/prod/echo?n=7' })).body).toEqual({
      got: { n: 7 },
    })
  })

  it('reads POST inputs from the JSON object body', async () => {
    expect((await post('/shop/prod/echo?n=99', { n: 5, flag: false })).body).toEqual({
      got: { n: 5, flag: false },
    })
  })

  it('takes an empty POST body as {}', async () => {
    const response = await gw.json({
      method: 'POST',
      url: '/shop/prod/echo',
      headers: { 'content-type': 'application/json' },
      payload: '',
    })
    expect(response).toMatchObject({ status: 200, body: { got: {} } })
    expect((await gw.json({ method: 'POST', url: '/shop/prod/echo' })).body).toEqual({ got: {} })
  })

  it('answers 400 INPUT_INVALID naming an input that cannot be converted', async () => {
    const { status, body } = await gw.json('/shop/prod/echo?n=three')
    expect(status).toBe(400)
    expect(body.error).toMatchObject({ code: 'INPUT_INVALID', flow: 'echo' })
    expect(body.error.message).toContain(`input 'n': expected a number, got the text "three"`)
  })

  it('answers 400 INPUT_REQUIRED naming a missing required input', async () => {
    const { status, body } = await post('/shop/prod/implicit', {})
    expect(status).toBe(400)
    expect(body.error).toEqual({
      code: 'INPUT_REQUIRED',
      message: "Missing required input 'qty'",
      flow: 'implicit',
      details: { input: 'qty' },
    })
  })

  it('fills implicit inputs with system values over request values, which stay in $body', async () => {
    const { body } = await post('/shop/prod/implicit', {
      qty: '2',
      application: 'spoofed',
      path: '/elsewhere',
    })
    expect(body.seen).toEqual({
      application: 'shop',
      stage: 'prod',
      method: 'POST',
      path: '/shop/prod/implicit',
      bodyApplication: 'spoofed',
      qty: 2,
    })
  })

  it('binds lower-case request headers as $headers with wrap headers', async () => {
    expect((await gw.json({ url: '/shop/prod/echo', headers: { 'X-Demo': 'yes' } })).body).toEqual({
      got: { header: 'yes' },
    })
  })

  it('gives flows the application owner and roles as the default context', async () => {
    const { body } = await gw.json('/shop/prod/ctx')
    expect(body.c).toMatchObject({
      userName: 'alice',
      authorities: ['admin', 'billing'],
      application: 'shop',
      stage: 'prod',
      method: 'GET',
      path: '/shop/prod/ctx',
      flow: 'ctx',
      executionId: expect.any(String) as string,
    })
  })

  it('records each run, with the request id shared and the execution id returned', async () => {
    const response = await gw.inject({
      url: '/shop/prod/echo?n=1',
      headers: { 'x-request-id': 'req-inputs-1' },
    })
    expect(response.headers['x-request-id']).toBe('req-inputs-1')
    const executionId = response.headers['x-execution-id'] as string
    expect(executionId).toMatch(/^[0-9a-f-]{36}$/)
    await settle(gw)
    expect(await gw.store.executions.get(executionId)).toMatchObject({
      requestId: 'req-inputs-1',
      flow: 'echo',
      flowVersion: 1,
      trigger: 'http',
      application: 'shop',
      stage: 'prod',
      endpoint: 'echo-get',
      status: 'succeeded',
    })
  })
})
