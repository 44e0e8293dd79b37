/** SPEC 4.1: routing by application, stage, method and path; 404 and 405. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startGateway, type TestGateway } from '../helpers/gateway.js'
import { publicProject } from './fixtures.js'

let gw: TestGateway
beforeAll(async () => {
  gw = await startGateway(publicProject)
})
afterAll(() => gw.close())

describe('routing', () => {
  it('serves a deployed endpoint at /<application>/<stage><path>', async () => {
    const { status, body } = await gw.json('/shop/prod/echo?n=1')
    expect(status).toBe(200)
    expect(body).toEqual({ got: { n: 1 } })
  })

  it.each([
    ['/nope/prod/echo', 'unknown application'],
    ['/shop/qa/echo', 'unknown stage'],
    ['/shop/prod/nothing', 'unknown endpoint'],
    ['/shop/dev/echo', 'endpoint not deployed on this stage'],
    ['/shop', 'no stage'],
    ['/', 'the root'],
    ['/shop/prod/echo/', 'a trailing slash'],
  ])('answers 404 NOT_FOUND for %s (%s)', async (url) => {
    const { status, body } = await gw.json(url)
    expect(status).toBe(404)
    expect(body).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String) as string } })
  })

  it('answers 405 with Allow when the path matches but the method does not', async () => {
    const { status, body, headers } = await gw.json({ method: 'PATCH', url: '/shop/prod/echo' })
    expect(status).toBe(405)
    expect(headers.allow).toBe('GET, POST, DELETE')
    expect(body.error.code).toBe('METHOD_NOT_ALLOWED')
  })

  it('does not offer in Allow a method whose endpoint is not deployed on the stage', async () => {
    const { status, headers } = await gw.json({ method: 'PUT', url: '/shop/prod/echo' })
    expect(status).toBe(405)
    expect(String(headers.allow)).not.toContain('PUT')
  })

  it('passes {param} segments as inputs, converted to their type', async () => {
    expect((await gw.json('/shop/prod/orders/42')).body).toEqual({ order: { id: 42 } })
  })

  it('passes what a trailing * matched as the wildcard input', async () => {
    expect((await gw.json('/shop/prod/files/a/b.txt')).body).toEqual({ order: { rest: 'a/b.txt' } })
  })

  it('decodes percent-encoded path parameters', async () => {
    expect((await gw.json('/shop/prod/files/caf%C3%A9')).body).toEqual({ order: { rest: 'café' } })
  })

  it('answers 400 to broken percent-encoding in the path', async () => {
    const { status, body } = await gw.json('/shop/prod/files/%E0%A4%A')
    expect(status).toBe(400)
    expect(body.error.code).toBe('BAD_REQUEST')
  })

  it('answers HEAD like GET, without a body', async () => {
    const response = await gw.inject({ method: 'HEAD', url: '/shop/prod/echo' })
    expect(response.statusCode).toBe(200)
    expect(response.body).toBe('')
  })
})
