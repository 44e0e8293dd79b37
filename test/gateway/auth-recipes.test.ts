/** The three worked examples of docs/authentication.md, served and exercised. */
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startGateway, type TestGateway } from '../helpers/gateway.js'

const flow = (name: string) =>
  readFileSync(
    new URL(`../../examples/auth-recipes/flows/${name}.flow.yaml`, import.meta.url),
    'utf8',
  )
const recipesProject = readFileSync(
  new URL('../../examples/auth-recipes/flowgate.yaml', import.meta.url),
  'utf8',
)

let introspection: Server
let gw: TestGateway
let insecure: TestGateway
beforeAll(async () => {
  introspection = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString()))
    req.on('end', () => {
      const { token } = JSON.parse(body) as { token: string }
      res.setHeader('content-type', 'application/json')
      res.end(
        JSON.stringify(
          token === 'valid-token'
            ? { active: true, username: 'erin', scope: 'read write' }
            : { active: false },
        ),
      )
    })
  })
  await new Promise<void>((resolve) => introspection.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(introspection.address() as AddressInfo).port}/introspect`
  // One application per recipe, each guarded by its authentication endpoint.
  const apps = ['introspect', 'roles', 'refuse']
    .map((endpoint) =>
      recipesProject
        .slice(recipesProject.indexOf('  - name: recipes'))
        .replace('name: recipes', `name: recipe-${endpoint}`)
        .replace(/endpoint: introspect\n {8}timeoutMs: 3000/, `endpoint: ${endpoint}`),
    )
    .join('')
  const files = {
    'flowgate.yaml': recipesProject.slice(0, recipesProject.indexOf('  - name: recipes')) + apps,
    'flows/report.flow.yaml': flow('report'),
    'flows/introspect-token.flow.yaml': flow('introspect-token').replace(
      'http://127.0.0.1:9400/introspect',
      url,
    ),
    'flows/roles-from-groups.flow.yaml': flow('roles-from-groups'),
    'flows/custom-refusal.flow.yaml': flow('custom-refusal'),
  }
  gw = await startGateway(files)
  insecure = await startGateway(files, { ENABLE_INSECURE_MAPPINGS: '1' })
})
afterAll(async () => {
  await gw.close()
  await insecure.close()
  introspection.close()
})

describe('recipe 1: a token checked against an external HTTP service', () => {
  it('lets a valid token in, with the user and scopes the service returned', async () => {
    const response = await gw.inject({
      url: '/recipe-introspect/prod/report',
      headers: { authorization: 'Bearer valid-token' },
    })
    expect(response.statusCode).toBe(200)
    expect(response.json().who).toMatchObject({ userName: 'erin', authorities: ['read', 'write'] })
  })
  it('refuses an inactive token or a missing one with 401', async () => {
    expect(
      (
        await gw.inject({
          url: '/recipe-introspect/prod/report',
          headers: { authorization: 'Bearer stolen' },
        })
      ).statusCode,
    ).toBe(401)
    expect((await gw.inject('/recipe-introspect/prod/report')).json()).toEqual({
      error: { code: 'UNAUTHENTICATED', message: 'Authentication failed' },
    })
  })
})

describe('recipe 2: roles mapped into authorities', () => {
  it('maps groups to roles and propagates the whole context', async () => {
    const response = await gw.inject({
      method: 'GET',
      url: '/recipe-roles/prod/report',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ user: 'fred', groups: ['eng', 'fin'] }),
    })
    expect(response.statusCode).toBe(200)
    expect(response.json().who).toMatchObject({
      userName: 'fred',
      authorities: ['developer', 'billing'],
      tenant: 'acme',
    })
  })
  it('refuses a user in no group, and answers a missing user with 401', async () => {
    const headers = { 'content-type': 'application/json' }
    expect(
      (await gw.inject({ url: '/recipe-roles/prod/report', headers, payload: '{"user":"x"}' }))
        .statusCode,
    ).toBe(401)
    const missing = await gw.inject({ url: '/recipe-roles/prod/report', headers, payload: '{}' })
    expect(missing.statusCode).toBe(401)
    expect(missing.json().error.code).toBe('INPUT_REQUIRED')
  })
})

describe('recipe 3: a custom refusal', () => {
  it('answers with the configured status and body', async () => {
    const response = await gw.inject('/recipe-refuse/prod/report?key=nope')
    expect(response.statusCode).toBe(403)
    expect(response.json()).toEqual({ error: { code: 'FORBIDDEN', message: 'unknown key' } })
    expect((await gw.inject('/recipe-refuse/prod/report?key=good')).statusCode).toBe(200)
  })
  it('adds headers only under ENABLE_INSECURE_MAPPINGS=1', async () => {
    const plain = await gw.inject('/recipe-refuse/prod/report?key=busy')
    expect(plain.statusCode).toBe(429)
    expect(plain.headers['retry-after']).toBeUndefined()
    const open = await insecure.inject('/recipe-refuse/prod/report?key=busy')
    expect(open.statusCode).toBe(429)
    expect(open.headers['retry-after']).toBe('30')
    expect(open.json()).toEqual({ error: { code: 'SLOW_DOWN', message: 'too many requests' } })
  })
})
