/** The admin API: its authentication, reads, apply and its validation errors, OpenAPI. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { settle, startGateway, type TestGateway } from '../helpers/gateway.js'
import { publicProject } from './fixtures.js'

const token = 'admin-secret'
const auth = { authorization: `Bearer ${token}` }
let gw: TestGateway
let closed: TestGateway
beforeAll(async () => {
  gw = await startGateway(publicProject, { FLOWGATE_ADMIN_TOKEN: token })
  closed = await startGateway(publicProject)
})
afterAll(async () => {
  await gw.close()
  await closed.close()
})

describe('admin API authentication', () => {
  it('is closed without FLOWGATE_ADMIN_TOKEN', async () => {
    const response = await closed.json({ url: '/admin/v1/applications', headers: auth })
    expect(response.status).toBe(403)
    expect(response.body.error.code).toBe('ADMIN_DISABLED')
  })

  it.each([
    [{}],
    [{ authorization: 'Bearer wrong' }],
    [{ authorization: token }],
    [{ authorization: `Basic ${token}` }],
  ])('refuses %j with 401 and WWW-Authenticate', async (headers) => {
    const response = await gw.json({ url: '/admin/v1/applications', headers })
    expect(response.status).toBe(401)
    expect(response.headers['www-authenticate']).toContain('Bearer')
    expect(response.body.error.code).toBe('AUTH_INVALID_CREDENTIALS')
  })
})

describe('admin API reads', () => {
  it('lists applications and shows one with stages, endpoints, deployments, authentication and warnings', async () => {
    const list = await gw.json({ url: '/admin/v1/applications', headers: auth })
    expect(list.body.items.map((a: { name: string }) => a.name)).toEqual(['shop'])
    const { status, body } = await gw.json({ url: '/admin/v1/applications/shop', headers: auth })
    expect(status).toBe(200)
    expect(body).toMatchObject({
      name: 'shop',
      project: 'alice/demo',
      owner: 'alice',
      stages: ['dev', 'prod'],
      authentication: [],
    })
    expect(body.warnings).toEqual(['application shop: every endpoint is public'])
    expect(body.deployments).toContainEqual(
      expect.objectContaining({
        stage: 'dev',
        endpoint: 'fails',
        method: 'POST',
        path: '/fails',
        flow: 'fails',
        flowVersion: 1,
        errorStatusCode: 422,
      }),
    )
    expect((await gw.json({ url: '/admin/v1/applications/nope', headers: auth })).status).toBe(404)
  })

  it('lists flows and deployments', async () => {
    const flows = await gw.json({ url: '/admin/v1/flows', headers: auth })
    expect(flows.body.items).toContainEqual(
      expect.objectContaining({ project: 'alice/demo', name: 'echo', version: 1 }),
    )
    const deployments = await gw.json({ url: '/admin/v1/deployments', headers: auth })
    expect(deployments.body.items).toContainEqual(
      expect.objectContaining({
        application: 'shop',
        stage: 'prod',
        endpoint: 'order',
        flow: 'order',
      }),
    )
  })

  it('lists executions newest first, by flow, with a limit', async () => {
    for (const n of [1, 2, 3]) await gw.inject(`/shop/prod/echo?n=${n}`)
    await gw.inject('/shop/prod/orders/1')
    await settle(gw)
    const { body } = await gw.json({ url: '/admin/v1/executions?flow=echo&limit=2', headers: auth })
    expect(body.items).toHaveLength(2)
    expect(body.items.every((e: { flow: string }) => e.flow === 'echo')).toBe(true)
    expect(body.items[0]).toMatchObject({
      flow: 'echo',
      status: 'succeeded',
      trigger: 'http',
      application: 'shop',
      stage: 'prod',
    })
    expect(body.items[0].startedAt >= body.items[1].startedAt).toBe(true)
    const one = await gw.json({ url: `/admin/v1/executions/${body.items[0].id}`, headers: auth })
    expect(one.body.id).toBe(body.items[0].id)
    expect((await gw.json({ url: '/admin/v1/executions?limit=0', headers: auth })).status).toBe(400)
  })
})

describe('admin API apply', () => {
  const project = (extra = '') => `owner: alice
project: demo
applications:
  - name: shop
    owner: alice
    stages: [prod]
    endpoints:
      - { name: hello, method: GET, path: /hello }
    deployments:
      - { stage: prod, endpoint: hello, flow: hello }
${extra}`
  const hello = (greeting: string) => ({ name: 'hello', steps: [{ assign: { result: greeting } }] })

  it('refuses an invalid document with every diagnostic and applies nothing', async () => {
    const response = await gw.json({
      method: 'POST',
      url: '/admin/v1/apply',
      headers: auth,
      payload: {
        project: project('    authentication: [{ type: workflow, stage: qa, endpoint: nope }]\n'),
        flows: [{ name: 'hello', steps: [{ teleport: {} }] }],
      },
    })
    expect(response.status).toBe(400)
    expect(response.body.error.code).toBe('VALIDATION_FAILED')
    const messages = response.body.error.details.diagnostics.map(
      (d: { file: string; line: number; message: string }) => `${d.file}:${d.line} ${d.message}`,
    )
    expect(messages).toEqual([
      "flowgate.yaml:11 application 'shop': workflow authentication names unknown stage 'qa' (a stage name or current)",
      "flowgate.yaml:11 application 'shop': workflow authentication names unknown endpoint 'nope'",
      expect.stringMatching(/^flows\/hello\.flow\.json:\d+ unknown step 'teleport'/),
    ])
    // Nothing changed: the old configuration is still served.
    expect((await gw.inject('/shop/prod/echo')).statusCode).toBe(200)
  })

  it('refuses a body that is not a project document', async () => {
    expect(
      (
        await gw.json({
          method: 'POST',
          url: '/admin/v1/apply',
          headers: auth,
          payload: { flows: [] },
        })
      ).status,
    ).toBe(400)
  })

  it('applies a valid project all at once and serves it right away, versioning changed flows', async () => {
    const first = await gw.json({
      method: 'POST',
      url: '/admin/v1/apply',
      headers: auth,
      payload: { project: project(), flows: [hello('one')] },
    })
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({
      project: 'alice/demo',
      flows: [{ name: 'hello', version: 1, changed: true }],
    })
    expect((await gw.json('/shop/prod/hello')).body).toEqual({ result: 'one' })
    expect((await gw.inject('/shop/prod/echo')).statusCode).toBe(404)

    const second = await gw.json({
      method: 'POST',
      url: '/admin/v1/apply',
      headers: auth,
      payload: { project: project(), flows: { 'hello.flow.json': hello('two') } },
    })
    expect(second.body.flows).toEqual([{ name: 'hello', version: 2, changed: true }])
    expect((await gw.json('/shop/prod/hello')).body).toEqual({ result: 'two' })
    const same = await gw.json({
      method: 'POST',
      url: '/admin/v1/apply',
      headers: auth,
      payload: { project: project(), flows: [hello('two')] },
    })
    expect(same.body.flows).toEqual([{ name: 'hello', version: 2, changed: false }])
  })
})

describe('OpenAPI', () => {
  it('describes the admin API at /admin/v1/openapi.json', async () => {
    const { status, body } = await gw.json('/admin/v1/openapi.json')
    expect(status).toBe(200)
    expect(body.openapi).toBe('3.1.0')
    expect(Object.keys(body.paths)).toEqual(
      expect.arrayContaining([
        '/admin/v1/applications',
        '/admin/v1/applications/{name}',
        '/admin/v1/flows',
        '/admin/v1/deployments',
        '/admin/v1/executions',
        '/admin/v1/apply',
      ]),
    )
    expect(Object.keys(body.paths).some((p) => !p.startsWith('/admin/v1'))).toBe(false)
  })
})
