/** SPEC 5: response mapping, and SPEC 4.4: flow errors. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startGateway, type TestGateway } from '../helpers/gateway.js'
import { publicProject } from './fixtures.js'

let gw: TestGateway
let insecure: TestGateway
beforeAll(async () => {
  gw = await startGateway(publicProject)
  insecure = await startGateway(publicProject, { ENABLE_INSECURE_MAPPINGS: '1' })
})
afterAll(async () => {
  await gw.close()
  await insecure.close()
})

const post = (target: TestGateway, url: string, payload: unknown) =>
  target.inject({
    method: 'POST',
    url,
    payload: JSON.stringify(payload),
    headers: { 'content-type': 'application/json' },
  })

describe('response mapping', () => {
  it('answers the outputs as JSON with 200 when nothing is mapped, response variables left out', async () => {
    const response = await post(gw, '/shop/prod/mapped', {})
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(response.json()).toEqual({ other: 'kept' })
  })

  it('maps responseBody and responseStatusCode implicitly', async () => {
    const response = await post(gw, '/shop/prod/mapped', { code: 201, payload: { id: 7 } })
    expect(response.statusCode).toBe(201)
    expect(response.json()).toEqual({ id: 7 })
  })

  it('lets the explicit Custom Response Configuration override the implicit mapping', async () => {
    const response = await post(gw, '/shop/prod/configured', { payload: 'p', code: 203 })
    expect(response.statusCode).toBe(203)
    expect(response.json()).toEqual({ configured: 'p' })
    expect((await post(gw, '/shop/prod/configured', {})).statusCode).toBe(202)
  })

  it('sends STRING bodies as text', async () => {
    const response = await post(gw, '/shop/prod/mapped', {
      format: 'STRING',
      payload: 'plain text',
    })
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8')
    expect(response.body).toBe('plain text')
  })

  it('sends BINARY bodies (base64 text) as bytes', async () => {
    const response = await post(gw, '/shop/prod/mapped', {
      format: 'BINARY',
      payload: Buffer.from([0, 1, 2, 255]).toString('base64'),
    })
    expect(response.headers['content-type']).toBe('application/octet-stream')
    expect([...response.rawPayload]).toEqual([0, 1, 2, 255])
  })

  it('ignores mapped headers and content type unless ENABLE_INSECURE_MAPPINGS=1', async () => {
    const payload = {
      payload: 'x',
      format: 'STRING',
      headers: { 'x-custom': 'a', 'content-type': 'text/html' },
      contentType: 'text/csv',
    }
    const plain = await post(gw, '/shop/prod/mapped', payload)
    expect(plain.headers['x-custom']).toBeUndefined()
    expect(plain.headers['content-type']).toBe('text/plain; charset=utf-8')
    const open = await post(insecure, '/shop/prod/mapped', payload)
    expect(open.headers['x-custom']).toBe('a')
    // responseContentType overrides a Content-Type in responseHeaders.
    expect(open.headers['content-type']).toBe('text/csv')
  })

  it.each([
    ['a status outside 200..599', { code: 99 }],
    ['a status that is not an integer', { code: 200.5 }],
    ['an unknown format', { format: 'XML' }],
    ['a BINARY body that is not base64', { format: 'BINARY', payload: 'not base64!' }],
  ])('turns %s into a flow error, and keeps serving', async (_what, payload) => {
    const response = await post(gw, '/shop/prod/mapped', payload)
    expect(response.statusCode).toBe(500)
    expect(response.json().error).toMatchObject({
      code: 'RESPONSE_MAPPING_INVALID',
      flow: 'mapped',
    })
    expect((await gw.inject('/shop/prod/echo')).statusCode).toBe(200)
  })

  it.each([
    ['CR/LF in a header value', { headers: { 'x-a': 'one\r\nset-cookie: evil=1' } }],
    ['a NUL in a header value', { headers: { 'x-a': 'a\u0000b' } }],
    ['an invalid header name', { headers: { 'bad name': 'x' } }],
    ['a forbidden header', { headers: { 'Content-Length': '1' } }],
    ['a hop-by-hop header', { headers: { connection: 'close' } }],
    ['CR/LF in the content type', { contentType: 'text/plain\r\nx: y' }],
  ])('refuses %s with a flow error', async (_what, payload) => {
    const response = await post(insecure, '/shop/prod/mapped', { payload: 'x', ...payload })
    expect(response.statusCode).toBe(500)
    expect(response.json().error.code).toBe('RESPONSE_MAPPING_INVALID')
    expect(response.headers['set-cookie']).toBeUndefined()
    expect((await insecure.inject('/shop/prod/echo')).statusCode).toBe(200)
  })
})

describe('flow errors', () => {
  it("answer the deployment's Error Status Code, 500 by default, with code, message, flow and step", async () => {
    const prod = await post(gw, '/shop/prod/fails', {})
    expect(prod.statusCode).toBe(500)
    expect(prod.json()).toEqual({
      error: {
        code: 'E_REFUSED',
        message: 'no way',
        flow: 'fails',
        step: 'steps[0].then[0]',
        stepId: 'refuse',
        details: { why: 'test' },
      },
    })
    const dev = await post(gw, '/shop/dev/fails', {})
    expect(dev.statusCode).toBe(422)
    expect(dev.headers['x-execution-id']).toBeDefined()
  })

  it('report run-time expression errors the same way', async () => {
    const response = await post(gw, '/shop/dev/fails', { kind: 'expression' })
    expect(response.statusCode).toBe(422)
    expect(response.json().error).toMatchObject({
      code: 'EXPRESSION_FAILED',
      flow: 'fails',
      step: 'steps[1]',
    })
  })
})
