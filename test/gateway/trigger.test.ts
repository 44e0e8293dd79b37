/** The trigger endpoint: every line of seed 4.2 and SPEC 7, through a real socket. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WorkerPool } from '../../src/queue/worker-pool.js'
import { createJobRunner } from '../../src/services/job-runner.js'
import { buildRuntimeConfiguration } from '../../src/services/runtime-configuration.js'
import { settle, startGateway, type TestGateway } from '../helpers/gateway.js'
import { sha, triggerProject } from './trigger-fixtures.js'

const otherProject = {
  'flowgate.yaml': `owner: mallory
project: other
apiKeys:
  - { name: m, user: mallory, sha256: ${sha('mallory-key')} }
`,
}

let gw: TestGateway
let base = ''
beforeAll(async () => {
  gw = await startGateway(triggerProject, {
    FLOWGATE_WORKER_WAIT_MS: '300',
    FLOWGATE_HEARTBEAT_MS: '100',
  })
  const other = await gw.server.applyDirectory(
    (await import('../helpers/project-dir.js')).projectDir(otherProject),
  )
  if (other.kind !== 'applied') throw new Error('other project invalid')
  base = await gw.listen()
})
afterAll(() => gw.close())

/** Response bodies are checked by the assertions, whatever their shape. */
const json = (response: Response): Promise<any> => response.json() as Promise<any>
const url = (path: string) => `${base}/api/v1/trigger/${path}`
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url(path), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
async function queued(): Promise<number> {
  await settle(gw)
  return (await gw.store.executions.list({ limit: 10_000 })).filter((e) => e.trigger === 'trigger')
    .length
}

describe('seed 4.2 / SPEC 7: POST', () => {
  it('runs synchronously with sync=true: body properties are input variables, answer {"result": $result}', async () => {
    const response = await post('alice/demo/echo?api_key=alice-key&sync=true', {
      input: 'hello',
      n: '3',
    })
    expect(response.status).toBe(200)
    expect(await json(response)).toEqual({
      result: {
        input: 'hello',
        n: 3,
        body: { input: 'hello', n: '3' },
        user: 'alice',
        roles: ['billing'],
      },
    })
  })

  it('counts and logs trigger requests by project and flow, with their execution id', async () => {
    const response = await post('alice/demo/echo?api_key=alice-key&sync=true', { input: 'm' })
    const executionId = response.headers.get('x-execution-id')
    const metrics = await (await fetch(`${base}/metrics`)).text()
    expect(metrics).toMatch(
      /flowgate_http_requests_total\{surface="trigger",application="-",stage="-",endpoint="alice\/demo\/echo",status="200"\} [1-9]/,
    )
    await settle(gw)
    const line = gw.logs
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.msg === 'request' && l.executionId === executionId)
    expect(line).toMatchObject({ route: 'alice/demo/echo', status: 200 })
    expect(String(line?.url)).not.toContain('alice-key')
  })

  it('accepts the key in the x-api-key header too, and sync=1', async () => {
    const response = await post(
      'alice/demo/echo?sync=1',
      { input: 'h' },
      { 'x-api-key': 'alice-key' },
    )
    expect(response.status).toBe(200)
  })

  it('answers a flow error of a synchronous run with 500 {"error": ...}', async () => {
    const response = await post('alice/demo/boom?api_key=alice-key&sync=true', {})
    expect(response.status).toBe(500)
    expect(await json(response)).toEqual({
      error: { code: 'E_BOOM', message: 'it broke', flow: 'boom', step: 'steps[0]' },
    })
  })

  it('answers a missing required input with 400', async () => {
    const response = await post('alice/demo/needs?api_key=alice-key&sync=true', {})
    expect(response.status).toBe(400)
    expect((await json(response)).error.code).toBe('INPUT_REQUIRED')
  })

  it('gives result null when the flow leaves $result unset', async () => {
    const response = await post('alice/demo/nothing?api_key=alice-key&sync=true', {})
    expect(await json(response)).toEqual({ result: null })
  })
})

describe('seed 4.2 / SPEC 7: GET', () => {
  it('1. without extra query parameters, runs with the default input values', async () => {
    const response = await fetch(url('alice/demo/plain?api_key=alice-key&sync=true'))
    expect(await json(response)).toEqual({ result: { input: 'fallback' } })
  })

  it('2. with wrap body, every extra query parameter is a property of $body; api_key, sync and worker_group are not', async () => {
    const response = await fetch(
      url('alice/demo/echo?api_key=alice-key&sync=true&worker_group=default&input=x&flag=on'),
    )
    expect(await json(response)).toEqual({
      result: {
        input: 'none',
        n: 1,
        body: { input: 'x', flag: 'on' },
        user: 'alice',
        roles: ['billing'],
      },
    })
  })

  it('2. without wrap body, extra parameters are not visible to the flow', async () => {
    const response = await fetch(url('alice/demo/plain?api_key=alice-key&sync=true&input=x'))
    expect(await json(response)).toEqual({ result: { input: 'fallback' } })
  })

  it('3. answers {"result": $result}', async () => {
    const response = await fetch(url('alice/demo/needs?api_key=alice-key&sync=true'))
    expect(response.status).toBe(400) // needs a POST body: required input x
    const ok = await fetch(url('alice/demo/echo?api_key=alice-key&sync=true'))
    expect(Object.keys((await json(ok)) as object)).toEqual(['result'])
  })
})

describe('SPEC 7: keys and permissions', () => {
  it('401 without a key, or with an unknown one', async () => {
    const missing = await fetch(url('alice/demo/echo?sync=true'))
    expect(missing.status).toBe(401)
    expect((await json(missing)).error.code).toBe('AUTH_REQUIRED')
    expect((await fetch(url('alice/demo/echo?sync=true&api_key=nope'))).status).toBe(401)
  })

  it("lets the project's owner and a user with role admin in; 403 for others and for keys of other projects", async () => {
    expect((await fetch(url('alice/demo/echo?sync=true&api_key=root-key'))).status).toBe(200)
    const eve = await fetch(url('alice/demo/echo?sync=true&api_key=eve-key'))
    expect(eve.status).toBe(403)
    expect((await json(eve)).error.code).toBe('FORBIDDEN')
    expect((await fetch(url('alice/demo/echo?sync=true&api_key=mallory-key'))).status).toBe(403)
  })

  it('runs with the key user as the context user', async () => {
    const response = await fetch(url('alice/demo/echo?sync=true&api_key=root-key'))
    expect((await json(response)).result).toMatchObject({ user: 'root', roles: ['admin'] })
  })

  it('404 for an unknown owner, project or flow, and for another path shape', async () => {
    for (const path of [
      'bob/demo/echo',
      'alice/nope/echo',
      'alice/demo/nope',
      'alice/demo',
      'alice/demo/echo/extra',
    ]) {
      expect((await fetch(url(`${path}?sync=true&api_key=alice-key`))).status, path).toBe(404)
    }
  })

  it('405 with Allow for other methods', async () => {
    const response = await fetch(url('alice/demo/echo?api_key=alice-key'), { method: 'DELETE' })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET, POST')
  })
})

describe('SPEC 7: asynchronous runs, the queue and worker groups', () => {
  it('queues without sync: 202 {executionId, status: "queued"} with Location; a worker runs it', async () => {
    const response = await post('alice/demo/echo?api_key=alice-key', { input: 'later' })
    expect(response.status).toBe(202)
    const body = (await json(response)) as { executionId: string; status: string }
    expect(body).toEqual({ executionId: expect.any(String) as string, status: 'queued' })
    expect(response.headers.get('location')).toBe(`/api/v1/executions/${body.executionId}`)
    const status = await fetch(
      `${base}${response.headers.get('location')}?wait=10&api_key=alice-key`,
    )
    expect(await json(status)).toMatchObject({
      executionId: body.executionId,
      status: 'succeeded',
      flow: 'echo',
      result: { input: 'later', user: 'alice' },
      attempts: 1,
      maxAttempts: 3,
      workerGroup: 'default',
    })
  })

  it('treats sync=false like no sync', async () => {
    expect((await fetch(url('alice/demo/echo?api_key=alice-key&sync=false'))).status).toBe(202)
  })

  it('keeps the error of a failed queued run', async () => {
    const response = await post('alice/demo/boom?api_key=alice-key', {})
    const { executionId } = (await json(response)) as { executionId: string }
    const status = await fetch(`${base}/api/v1/executions/${executionId}?wait=10`, {
      headers: { 'x-api-key': 'alice-key' },
    })
    expect(await json(status)).toMatchObject({
      status: 'failed',
      error: { code: 'E_BOOM', message: 'it broke' },
    })
  })

  it('applies the same key rules to execution status, and refuses a bad wait', async () => {
    const { executionId } = (await (
      await post('alice/demo/echo?api_key=alice-key', {})
    ).json()) as { executionId: string }
    expect((await fetch(`${base}/api/v1/executions/${executionId}`)).status).toBe(401)
    expect((await fetch(`${base}/api/v1/executions/${executionId}?api_key=eve-key`)).status).toBe(
      403,
    )
    expect(
      (await fetch(`${base}/api/v1/executions/${executionId}?api_key=mallory-key`)).status,
    ).toBe(403)
    expect((await fetch(`${base}/api/v1/executions/nope?api_key=alice-key`)).status).toBe(404)
    expect(
      (await fetch(`${base}/api/v1/executions/${executionId}?api_key=alice-key&wait=600`)).status,
    ).toBe(400)
  })

  it('answers a synchronous run for a group with no live worker with 503, after a short wait, and queues nothing', async () => {
    const before = await queued()
    const started = Date.now()
    const response = await post('alice/demo/echo?api_key=alice-key&sync=true&worker_group=idle', {})
    expect(response.status).toBe(503)
    expect((await json(response)).error).toMatchObject({
      code: 'NO_LIVE_WORKER',
      message: expect.stringContaining('idle') as string,
    })
    expect(Date.now() - started).toBeGreaterThanOrEqual(250)
    expect(await queued()).toBe(before)
  })

  it("runs a synchronous run of another group on that group's live workers", async () => {
    const stored = await gw.store.configuration.load()
    const remoteRuntime = buildRuntimeConfiguration(stored)
    const remote = new WorkerPool(gw.store.queue, {
      groups: ['batch'],
      concurrency: 2,
      leaseMs: 5000,
      pollMs: 20,
      heartbeatMs: 100,
      run: createJobRunner({ runtime: () => remoteRuntime, flowLogger: { log() {} } }),
      onError: () => undefined,
    })
    await remote.start()
    try {
      const response = await post(
        'alice/demo/echo?api_key=alice-key&sync=true&worker_group=batch',
        { input: 'remote' },
      )
      expect(response.status).toBe(200)
      expect((await json(response)).result).toMatchObject({ input: 'remote' })
      const id = response.headers.get('x-execution-id')!
      const record = await gw.store.executions.get(id)
      expect(record).toMatchObject({ status: 'succeeded', workerGroup: 'batch', attempts: 1 })
    } finally {
      await remote.stop(1000)
    }
  })
})

describe('bad input: a 4xx JSON error and nothing queued', () => {
  it.each([
    ['malformed JSON', () => post('alice/demo/echo?api_key=alice-key', '{"input":'), 400],
    ['a non-object body', () => post('alice/demo/echo?api_key=alice-key', '[1,2]'), 400],
    [
      'a wrong content type',
      () =>
        fetch(url('alice/demo/echo?api_key=alice-key'), {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: 'x',
        }),
      415,
    ],
    ['an unknown flow', () => post('alice/demo/ghost?api_key=alice-key', {}), 404],
    [
      'an unknown worker group',
      () => post('alice/demo/echo?api_key=alice-key&worker_group=gpu', {}),
      400,
    ],
    ['a missing key', () => post('alice/demo/echo', {}), 401],
    ['a key of another user', () => post('alice/demo/echo?api_key=eve-key', {}), 403],
    [
      'a sync value that is neither true nor false',
      () => post('alice/demo/echo?api_key=alice-key&sync=yes', {}),
      400,
    ],
    [
      'a repeated query key',
      () => post('alice/demo/echo?api_key=alice-key&sync=true&sync=false', {}),
      400,
    ],
  ] as const)('%s', async (_what, send, status) => {
    const before = await queued()
    const response = await send()
    expect(response.status).toBe(status)
    expect(((await json(response)) as { error: { code: string } }).error.code).toEqual(
      expect.any(String),
    )
    expect(await queued()).toBe(before)
  })
})
