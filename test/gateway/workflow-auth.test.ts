/**
 * Workflow Authentication, one test per rule of the seed (sections 2.1, 2.2, 2.3, 2.4, 4.1
 * and 7), through HTTP.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { settle, startGateway, type TestGateway } from '../helpers/gateway.js'
import { workflowProject } from './workflow-fixtures.js'

let gw: TestGateway
let insecure: TestGateway
beforeAll(async () => {
  gw = await startGateway(workflowProject, { FLOWGATE_ADMIN_TOKEN: 't' })
  insecure = await startGateway(workflowProject, { ENABLE_INSECURE_MAPPINGS: '1' })
})
afterAll(async () => {
  await gw.close()
  await insecure.close()
})

const json = { 'content-type': 'application/json' }
/** The business flow's report of what it saw, or the refusal. */
async function call(options: Parameters<TestGateway['inject']>[0], target = gw) {
  const response = await target.inject(options)
  return { status: response.statusCode, body: response.json(), headers: response.headers }
}

async function executionsOf(requestId: string) {
  await settle(gw)
  return gw.store.executions.list({ requestId, limit: 10 })
}

describe('seed 2.1: inputs of the authentication flow follow the method of its endpoint', () => {
  it('2.1 GET authentication endpoint: inputs from the query string', async () => {
    const { status, body } = await call('/get-auth/prod/thing?token=ok&item=x')
    expect(status).toBe(200)
    expect(body.seen.item).toBe('x')
  })

  it('2.1 POST authentication endpoint: inputs from the JSON object body', async () => {
    expect(
      (
        await call({
          method: 'POST',
          url: '/post-auth/prod/thing',
          headers: json,
          payload: { token: 'ok', item: 'y' },
        })
      ).status,
    ).toBe(200)
    expect(
      (
        await call({
          method: 'POST',
          url: '/post-auth/prod/thing?token=ok',
          headers: json,
          payload: { item: 'y' },
        })
      ).status,
    ).toBe(401)
  })

  it('2.1 a POST business endpoint guarded by a GET authentication endpoint: body for business, query for authentication', async () => {
    const { status, body } = await call({
      method: 'POST',
      url: '/get-auth/prod/thing?token=ok&item=from-query',
      headers: json,
      payload: { item: 'from-body', token: 'nope' },
    })
    expect(status).toBe(200)
    expect(body.seen.item).toBe('from-body')
  })

  it('2.1 a GET business endpoint guarded by a POST authentication endpoint: query for business, body for authentication', async () => {
    const { status, body } = await call({
      method: 'GET',
      url: '/post-auth/prod/thing?item=from-query&token=nope',
      headers: json,
      payload: JSON.stringify({ token: 'ok' }),
    })
    expect(status).toBe(200)
    expect(body.seen.item).toBe('from-query')
    expect((await call('/post-auth/prod/thing?item=q&token=ok')).status).toBe(401)
  })

  it('2.1 wrap headers: request headers reach the authentication flow as $headers', async () => {
    const { body } = await call({
      url: '/get-auth/prod/thing?token=echo',
      headers: { 'X-Who': 'h1' },
    })
    expect(body.seen.userName.split('|')[5]).toBe('h1')
  })
})

describe('seed 2.2: implicit input variables of the authentication flow', () => {
  it('2.2 application, stage, method and path are filled with system values, overriding request values; wrap body keeps the request value', async () => {
    const { body } = await call(
      '/get-auth/dev/thing?token=echo&application=spoof&stage=spoof&method=spoof&path=spoof',
    )
    expect(body.seen.userName.split('|').slice(0, 5)).toEqual([
      'get-auth',
      'dev',
      'GET',
      '/get-auth/dev/thing',
      'spoof',
    ])
  })

  it('2.2 the method is the incoming request method', async () => {
    const { body } = await call({
      method: 'POST',
      url: '/get-auth/prod/thing?token=echo',
      headers: json,
      payload: {},
    })
    expect(body.seen.userName.split('|')[2]).toBe('POST')
  })
})

describe('seed 2.3: implicit output variables', () => {
  it.each(['absent', 'false', 'zero', 'empty', 'null'])(
    '2.3 rule 1: success %s means unsuccessful, the business flow does not run',
    async (token) => {
      const response = await gw.inject({
        url: `/get-auth/prod/thing?token=${token === 'absent' ? 'other' : token}`,
        headers: { 'x-request-id': `r1-${token}` },
      })
      expect(response.statusCode).toBe(401)
      expect(response.json()).toEqual({
        error: { code: 'UNAUTHENTICATED', message: 'Authentication failed' },
      })
      const runs = await executionsOf(`r1-${token}`)
      expect(runs.map((e) => e.flow)).toEqual(['decide'])
    },
  )

  it.each(['ok', 'ok-string', 'ok-number'])(
    '2.3 rule 1: any other success (%s) means success',
    async (token) => {
      expect((await call(`/get-auth/prod/thing?token=${token}`)).status).toBe(200)
    },
  )

  it('2.3 rule 2: by default the context user is the application owner, with their roles', async () => {
    const { body } = await call('/get-auth/prod/thing?token=ok')
    expect(body.seen).toMatchObject({
      userName: 'alice',
      authorities: ['admin', 'billing'],
      application: 'get-auth',
      stage: 'prod',
    })
  })

  it('2.3 rule 3: the properties of a context output are propagated to the context', async () => {
    const { body } = await call('/get-auth/prod/thing?token=context')
    expect(body.seen).toMatchObject({ userName: 'dave', authorities: ['ops'], tenant: 't1' })
    // ... but never the system properties.
    expect(body.seen).toMatchObject({ application: 'get-auth', stage: 'prod', flow: 'business' })
  })

  it('2.3 rule 4: without context, userName or authorities create a new context', async () => {
    expect((await call('/get-auth/prod/thing?token=user')).body.seen).toMatchObject({
      userName: 'bob',
      authorities: [],
    })
    expect((await call('/get-auth/prod/thing?token=authorities-string')).body.seen).toMatchObject({
      userName: null,
      authorities: ['auditor'],
    })
    expect((await call('/get-auth/prod/thing?token=authorities-list')).body.seen).toMatchObject({
      userName: 'carol',
      authorities: ['a', 'b'],
    })
  })

  it('2.3 rule 5: userName and authorities override the context, even when null or falsy', async () => {
    expect((await call('/get-auth/prod/thing?token=context-override')).body.seen).toMatchObject({
      userName: null,
      authorities: [''],
      tenant: 't1',
    })
    expect((await call('/get-auth/prod/thing?token=falsy-user')).body.seen).toMatchObject({
      userName: '',
      authorities: [],
    })
  })
})

describe('seed 2.4: response of a refusing authentication flow', () => {
  it('2.4 implicit response variables make the response when nothing is configured', async () => {
    expect(await call('/get-auth/prod/thing?token=refuse-mapped')).toMatchObject({
      status: 403,
      body: { denied: true },
    })
  })

  it('2.4 rule 1: the explicit Custom Response Configuration overrides the implicit mapping', async () => {
    expect(await call('/configured/prod/thing?token=refuse-mapped')).toMatchObject({
      status: 451,
      body: { configured: true, token: 'refuse-mapped' },
    })
  })

  it('2.4 rule 2: headers and content type are mapped only with ENABLE_INSECURE_MAPPINGS=1', async () => {
    const plain = await gw.inject('/get-auth/prod/thing?token=refuse-headers')
    expect(plain.statusCode).toBe(429)
    expect(plain.body).toBe('slow down')
    expect(plain.headers['retry-after']).toBeUndefined()
    expect(plain.headers['content-type']).toBe('text/plain; charset=utf-8')
    const open = await insecure.inject('/get-auth/prod/thing?token=refuse-headers')
    expect(open.headers['retry-after']).toBe('30')
    expect(open.headers['content-type']).toBe('text/x-custom')
  })
})

describe('seed 4.1: business and authentication endpoints', () => {
  it('4.1 stage "Current": the authentication flow deployed on the request\'s stage runs', async () => {
    const response = await gw.inject({
      url: '/get-auth/dev/thing?token=ok',
      headers: { 'x-request-id': 'r41-current' },
    })
    expect(response.statusCode).toBe(200)
    const auth = (await executionsOf('r41-current')).find((e) => e.trigger === 'authentication')
    expect(auth).toMatchObject({ flow: 'decide', stage: 'dev', endpoint: 'auth-get' })
  })

  it('4.1 a named stage: the flow deployed on that stage runs, whatever the request stage', async () => {
    const response = await gw.inject({
      url: '/configured/prod/thing?token=ok',
      headers: { 'x-request-id': 'r41-named' },
    })
    expect(response.statusCode).toBe(200)
    expect(
      (await executionsOf('r41-named')).find((e) => e.trigger === 'authentication')?.stage,
    ).toBe('prod')
  })

  it('4.1 missing authentication deployment: 404, exactly as a missing business deployment', async () => {
    const missingAuth = await gw.inject('/half-deployed/dev/thing?token=ok')
    const missingBusiness = await gw.inject('/half-deployed/dev/nothing')
    expect(missingAuth.statusCode).toBe(404)
    expect(missingAuth.json()).toEqual(missingBusiness.json())
    expect((await gw.inject('/half-deployed/prod/thing?token=ok')).statusCode).toBe(200)
  })

  it('4.1 settings warning: the admin API names each stage and endpoint pair without a deployment', async () => {
    const { body } = await call({
      url: '/admin/v1/applications/half-deployed',
      headers: { authorization: 'Bearer t' },
    })
    expect(body.warnings).toEqual([
      "application half-deployed: workflow authentication points at stage 'dev' and endpoint 'auth-get', where no flow is deployed",
    ])
    const ok = await call({
      url: '/admin/v1/applications/get-auth',
      headers: { authorization: 'Bearer t' },
    })
    expect(ok.body.warnings).toEqual([])
  })
})

describe('seed section 7: errors', () => {
  it('7 the authentication flow throws: the business flow does not run; its error response with its Error Status Code', async () => {
    const response = await gw.inject({
      method: 'POST',
      url: '/post-auth/prod/thing',
      headers: { ...json, 'x-request-id': 'r7-throw' },
      payload: { token: 'throw' },
    })
    expect(response.statusCode).toBe(418)
    expect(response.json()).toEqual({
      error: {
        code: 'E_AUTH',
        message: 'auth exploded',
        flow: 'decide',
        step: 'steps[0].switch.cases.throw[0]',
      },
    })
    expect((await executionsOf('r7-throw')).map((e) => [e.flow, e.status])).toEqual([
      ['decide', 'failed'],
    ])
  })

  it('7 Error Status Code not set on the authentication deployment: 401', async () => {
    const response = await gw.inject('/get-auth/prod/thing?token=throw')
    expect(response.statusCode).toBe(401)
    expect(response.json().error).toMatchObject({ code: 'E_AUTH', flow: 'decide' })
  })

  it('7 a hanging authentication flow times out into the error path; the server keeps serving others', async () => {
    const sockets = new Set<Socket>()
    const silent: Server = createServer(() => undefined)
    silent.on('connection', (s) => sockets.add(s))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const target = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/never`
    try {
      const started = Date.now()
      const [hung, ...others] = await Promise.all([
        gw.inject(`/hanging/prod/thing?target=${encodeURIComponent(target)}`),
        ...Array.from({ length: 20 }, () => gw.inject('/get-auth/prod/thing?token=ok')),
      ])
      expect(hung.statusCode).toBe(401)
      expect(hung.json().error.code).toBe('FLOW_TIMEOUT')
      expect(Date.now() - started).toBeLessThan(5000)
      expect(others.every((r) => r.statusCode === 200)).toBe(true)
    } finally {
      for (const s of sockets) s.destroy()
      silent.close()
    }
  })
})

describe('with apiKey also listed', () => {
  it('both must pass, in the listed order', async () => {
    const noKey = await gw.inject({
      url: '/with-key/prod/thing?token=ok',
      headers: { 'x-request-id': 'rk-none' },
    })
    expect(noKey.statusCode).toBe(401)
    expect(noKey.json().error.code).toBe('AUTH_REQUIRED')
    expect(await executionsOf('rk-none')).toEqual([]) // the authentication flow did not even run
    expect(
      (
        await gw.inject({
          url: '/with-key/prod/thing?token=no',
          headers: { 'x-api-key': 'kim-key' },
        })
      ).statusCode,
    ).toBe(401)
    const both = await call({
      url: '/with-key/prod/thing?token=ok',
      headers: { 'x-api-key': 'kim-key' },
    })
    expect(both.status).toBe(200)
    // The key's user is the context the authentication flow started from.
    expect(both.body.seen).toMatchObject({ userName: 'kim', authorities: ['keyholder'] })
  })
})

describe('execution records', () => {
  it('8 the authentication run and the business run of one request share its request id', async () => {
    await gw.inject({
      url: '/get-auth/prod/thing?token=ok',
      headers: { 'x-request-id': 'r8-shared' },
    })
    const runs = await executionsOf('r8-shared')
    expect(runs.map((e) => [e.flow, e.trigger, e.status]).sort()).toEqual([
      ['business', 'http', 'succeeded'],
      ['decide', 'authentication', 'succeeded'],
    ])
  })
})

describe('under concurrency', () => {
  it('each business run sees its own context, and refused requests never reach the business flow', async () => {
    const tokens = [
      'user',
      'authorities-list',
      'context',
      'ok',
      'false',
      'throw',
      'refuse-mapped',
      'zero',
    ]
    const refused = new Set(['false', 'throw', 'refuse-mapped', 'zero'])
    const expectedUser: Record<string, unknown> = {
      user: 'bob',
      'authorities-list': 'carol',
      context: 'dave',
      ok: 'alice',
    }
    const requests = Array.from({ length: 400 }, (_, i) => ({
      token: tokens[i % tokens.length]!,
      id: `conc-${i}`,
    }))
    const responses = await Promise.all(
      requests.map((r) =>
        gw.inject({
          url: `/get-auth/prod/thing?token=${r.token}&item=${r.id}`,
          headers: { 'x-request-id': r.id },
        }),
      ),
    )
    responses.forEach((response, i) => {
      const { token, id } = requests[i]!
      if (refused.has(token)) {
        expect(response.statusCode).not.toBe(200)
      } else {
        expect(response.statusCode).toBe(200)
        expect(response.json().seen).toMatchObject({ userName: expectedUser[token], item: id })
      }
    })
    await settle(gw)
    const all = await gw.store.executions.list({ limit: 10_000 })
    const business = all.filter((e) => e.flow === 'business' && e.requestId.startsWith('conc-'))
    expect(business).toHaveLength(requests.filter((r) => !refused.has(r.token)).length)
    const refusedIds = new Set(requests.filter((r) => refused.has(r.token)).map((r) => r.id))
    expect(business.some((e) => refusedIds.has(e.requestId))).toBe(false)
  })
})
