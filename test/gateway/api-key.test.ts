/** SPEC 6: the apiKey mechanism; keys never appear in logs. */
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startGateway, type TestGateway } from '../helpers/gateway.js'

const sha = (key: string) => createHash('sha256').update(key).digest('hex')

const project = {
  'flowgate.yaml': `owner: alice
project: keys
users:
  - { name: alice, roles: [admin] }
  - { name: bob, roles: [support, night] }
apiKeys:
  - { name: a, user: alice, sha256: ${sha('alice-key')} }
  - { name: b, user: bob, sha256: ${sha('bob-key')} }
applications:
  - name: api-app
    owner: alice
    stages: [prod]
    endpoints:
      - { name: who, method: GET, path: /who }
      - { name: who-post, method: POST, path: /who }
    deployments:
      - { stage: prod, endpoint: who, flow: who }
      - { stage: prod, endpoint: who-post, flow: who }
    authentication:
      - type: apiKey
`,
  'flows/who.flow.yaml': `name: who
start:
  wrapBody: true
  variables:
    - { name: api_key, type: string, input: true }
    - { name: me, type: object, output: true }
steps:
  - assign: { me: "{% {'user': $context.userName, 'roles': $context.authorities, 'keyInput': $api_key, 'keyInBody': $body.api_key} %}" }
`,
}

let gw: TestGateway
beforeAll(async () => {
  gw = await startGateway(project)
})
afterAll(() => gw.close())

describe('apiKey authentication', () => {
  it('refuses a request without a key: 401 AUTH_REQUIRED with WWW-Authenticate', async () => {
    const response = await gw.inject('/api-app/prod/who')
    expect(response.statusCode).toBe(401)
    expect(response.json().error.code).toBe('AUTH_REQUIRED')
    expect(response.headers['www-authenticate']).toContain('ApiKey')
  })

  it('refuses an unknown key: 401 AUTH_INVALID_CREDENTIALS', async () => {
    const response = await gw.inject({
      url: '/api-app/prod/who',
      headers: { 'x-api-key': 'guess' },
    })
    expect(response.statusCode).toBe(401)
    expect(response.json().error.code).toBe('AUTH_INVALID_CREDENTIALS')
  })

  it("accepts the x-api-key header; the key's user and roles become the context", async () => {
    const response = await gw.inject({
      url: '/api-app/prod/who',
      headers: { 'x-api-key': 'bob-key' },
    })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ me: { user: 'bob', roles: ['support', 'night'] } })
  })

  it('accepts the api_key query parameter, and never passes it to the flow', async () => {
    const response = await gw.inject('/api-app/prod/who?api_key=alice-key')
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ me: { user: 'alice', roles: ['admin'] } })
  })

  it('checks POST requests the same way', async () => {
    const response = await gw.inject({
      method: 'POST',
      url: '/api-app/prod/who',
      headers: { 'x-api-key': 'alice-key', 'content-type': 'application/json' },
      payload: '{}',
    })
    expect(response.json()).toEqual({ me: { user: 'alice', roles: ['admin'] } })
  })

  it('never writes a key to the log, wherever it was sent', async () => {
    await gw.inject({
      url: '/api-app/prod/who?api_key=alice-key&x=1',
      headers: { 'x-api-key': 'bob-key', authorization: 'Bearer secret-token' },
    })
    await gw.inject('/api-app/prod/who?api_key=wrong-key-123')
    const text = gw.logs.join('\n')
    expect(text).toContain('api_key=[REDACTED]')
    for (const secret of ['alice-key', 'bob-key', 'wrong-key-123', 'secret-token'])
      expect(text).not.toContain(secret)
  })
})
