/** Bad requests: each gets a 4xx JSON error and runs nothing. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { settle, startGateway, type TestGateway } from '../helpers/gateway.js'
import { publicProject } from './fixtures.js'

let gw: TestGateway
beforeAll(async () => {
  gw = await startGateway(publicProject, {
    FLOWGATE_BODY_LIMIT: '65536',
    FLOWGATE_MAX_BODY_DEPTH: '32',
  })
})
afterAll(() => gw.close())

async function runs(): Promise<number> {
  await settle(gw)
  return (await gw.store.executions.list({ limit: 1000 })).length
}

const json = { 'content-type': 'application/json' }
const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth)

describe('bad input', () => {
  it.each([
    [
      'malformed JSON',
      { method: 'POST', url: '/shop/prod/echo', headers: json, payload: '{"n": 1,' },
      400,
      'BAD_REQUEST',
    ],
    [
      'a JSON array body',
      { method: 'POST', url: '/shop/prod/echo', headers: json, payload: '[1,2]' },
      400,
      'BAD_REQUEST',
    ],
    [
      'a JSON string body',
      { method: 'POST', url: '/shop/prod/echo', headers: json, payload: '"text"' },
      400,
      'BAD_REQUEST',
    ],
    [
      'a JSON null body',
      { method: 'POST', url: '/shop/prod/echo', headers: json, payload: 'null' },
      400,
      'BAD_REQUEST',
    ],
    [
      'a body over the limit',
      {
        method: 'POST',
        url: '/shop/prod/echo',
        headers: json,
        payload: JSON.stringify({ text: 'x'.repeat(100_000) }),
      },
      413,
      'PAYLOAD_TOO_LARGE',
    ],
    [
      'a 20 KB body nested 10,000 deep',
      {
        method: 'POST',
        url: '/shop/prod/echo',
        headers: json,
        payload: `{"list": ${deep(10_000)}}`,
      },
      400,
      'BAD_REQUEST',
    ],
    [
      'a body nested deeper than the limit',
      { method: 'POST', url: '/shop/prod/echo', headers: json, payload: `{"list": ${deep(40)}}` },
      400,
      'BAD_REQUEST',
    ],
    [
      'an unsupported content type',
      {
        method: 'POST',
        url: '/shop/prod/echo',
        headers: { 'content-type': 'text/plain' },
        payload: 'n=1',
      },
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    [
      'a form body',
      {
        method: 'POST',
        url: '/shop/prod/echo',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'n=1',
      },
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    [
      'a __proto__ key in the body',
      {
        method: 'POST',
        url: '/shop/prod/echo',
        headers: json,
        payload: '{"__proto__": {"admin": true}}',
      },
      400,
      'BAD_REQUEST',
    ],
    [
      'a nested constructor key',
      {
        method: 'POST',
        url: '/shop/prod/echo',
        headers: json,
        payload: '{"a": {"constructor": {"prototype": {}}}}',
      },
      400,
      'BAD_REQUEST',
    ],
    [
      'a prototype key',
      { method: 'POST', url: '/shop/prod/echo', headers: json, payload: '{"prototype": 1}' },
      400,
      'BAD_REQUEST',
    ],
    ['a __proto__ query key', { url: '/shop/prod/echo?__proto__=1' }, 400, 'BAD_REQUEST'],
    ['a constructor query key', { url: '/shop/prod/echo?constructor=1' }, 400, 'BAD_REQUEST'],
    [
      'broken percent-encoding in the query',
      { url: '/shop/prod/echo?text=%E0%A4%A' },
      400,
      'BAD_REQUEST',
    ],
    ['a lone % in the query', { url: '/shop/prod/echo?text=100%' }, 400, 'BAD_REQUEST'],
    ['a repeated query key', { url: '/shop/prod/echo?n=1&n=2' }, 400, 'BAD_REQUEST'],
  ] as const)(
    'answers %s with a 4xx JSON error and runs nothing',
    async (_what, request, status, code) => {
      const before = await runs()
      const response = await gw.inject(request)
      expect(response.statusCode).toBe(status)
      expect(response.headers['content-type']).toContain('application/json')
      expect(response.json()).toEqual({ error: { code, message: expect.any(String) as string } })
      expect(await runs()).toBe(before)
    },
  )

  it('accepts a body nested just within the limit', async () => {
    const response = await gw.inject({
      method: 'POST',
      url: '/shop/prod/echo',
      headers: json,
      payload: `{"list": ${deep(30)}}`,
    })
    expect(response.statusCode).toBe(200)
  })

  it('keeps serving after all of that', async () => {
    expect((await gw.inject('/shop/prod/echo?n=1')).json()).toEqual({ got: { n: 1 } })
  })
})
