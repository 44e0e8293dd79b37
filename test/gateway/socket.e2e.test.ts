/** The business surface through a real socket, with fetch, as clients use it. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { request } from 'node:http'
import { startGateway, type TestGateway } from '../helpers/gateway.js'
import { publicProject } from './fixtures.js'

let gw: TestGateway
let base = ''
beforeAll(async () => {
  gw = await startGateway(publicProject, { FLOWGATE_BODY_LIMIT: '1024' })
  base = await gw.listen()
})
afterAll(() => gw.close())

describe('over a real socket', () => {
  it('serves GET with query inputs', async () => {
    const response = await fetch(`${base}/shop/prod/echo?n=4&flag=0`)
    expect(response.status).toBe(200)
    expect(response.headers.get('x-request-id')).toBeTruthy()
    expect(response.headers.get('x-execution-id')).toBeTruthy()
    expect(await response.json()).toEqual({ got: { n: 4, flag: false } })
  })

  it('serves POST with a JSON body, and answers 404 and 405', async () => {
    const ok = await fetch(`${base}/shop/prod/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"text":"t"}',
    })
    expect(await ok.json()).toEqual({ got: { text: 't' } })
    expect((await fetch(`${base}/shop/prod/missing`)).status).toBe(404)
    const wrong = await fetch(`${base}/shop/prod/echo`, { method: 'PATCH' })
    expect(wrong.status).toBe(405)
    expect(wrong.headers.get('allow')).toBe('GET, POST, DELETE')
  })

  it('answers 413 to a body over the limit and 400 to malformed JSON', async () => {
    const big = await fetch(`${base}/shop/prod/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'x'.repeat(5000) }),
    })
    expect(big.status).toBe(413)
    expect(((await big.json()) as { error: { code: string } }).error.code).toBe('PAYLOAD_TOO_LARGE')
    const bad = await fetch(`${base}/shop/prod/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{oops',
    })
    expect(bad.status).toBe(400)
  })

  it('answers 400 JSON to a raw request whose path has broken percent-encoding', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${base}/shop/prod/files/%ZZ`, (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
      req.on('error', reject)
      req.end()
    })
    expect(status).toBe(400)
  })

  it('serves many requests on one kept-alive connection', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        fetch(`${base}/shop/prod/echo?n=${i}`).then(
          (r) => r.json() as Promise<{ got: { n: number } }>,
        ),
      ),
    )
    expect(results.map((r) => r.got.n)).toEqual(Array.from({ length: 50 }, (_, i) => i))
  })
})

describe('connection limits', () => {
  it('answers 408 when a request body does not arrive in time', async () => {
    const slow = await startGateway(publicProject, { FLOWGATE_REQUEST_TIMEOUT_MS: '300' })
    const url = new URL(await slow.listen())
    try {
      const { connect } = await import('node:net')
      const started = Date.now()
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(url.port), url.hostname, () => {
          // Headers promise a body that never comes.
          socket.write(
            'POST /shop/prod/echo HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{',
          )
        })
        let data = ''
        socket.on('data', (chunk: Buffer) => (data += chunk.toString()))
        socket.on('close', () => resolve(data))
        socket.on('error', reject)
      })
      expect(answer).toMatch(/^HTTP\/1\.1 408/)
      expect(Date.now() - started).toBeLessThan(5000)
    } finally {
      await slow.close()
    }
  })
})
