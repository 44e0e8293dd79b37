/**
 * The suite every storage backend passes. A backend's test file calls `storeContract` with a
 * way to open a fresh store (and, when it persists, to reopen the same one).
 */
import { createHash } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import type { NewJob } from '../../src/queue/queue.js'
import type { ExecutionRecord, ProjectApplication } from '../../src/storage/records.js'
import type { Store } from '../../src/storage/store.js'

export interface ContractOptions {
  open(): Promise<Store>
  /** Opens the store `open` last created again, when the backend persists. */
  reopen?(): Promise<Store>
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex')
const flow = (name: string, body = '1') => {
  const source = `name: ${name}\nsteps:\n  - assign: { result: ${body} }\n`
  return { name, file: `flows/${name}.flow.yaml`, source, hash: sha(source) }
}

export function sampleProject(overrides: Partial<ProjectApplication> = {}): ProjectApplication {
  return {
    owner: 'alice',
    name: 'demo',
    users: [
      { name: 'alice', roles: ['admin', 'billing'] },
      { name: 'bob', roles: [] },
    ],
    apiKeys: [{ name: 'ci', user: 'alice', sha256: sha('key-1') }],
    workerGroups: ['default', 'batch'],
    applications: [
      {
        name: 'shop',
        owner: 'alice',
        stages: ['dev', 'prod'],
        endpoints: [
          { name: 'orders', method: 'POST', path: '/orders' },
          { name: 'auth', method: 'GET', path: '/auth' },
        ],
        deployments: [
          {
            stage: 'prod',
            endpoint: 'orders',
            flow: 'a',
            errorStatusCode: 422,
            response: { statusCode: 201, body: '{% $x %}' },
          },
          { stage: 'prod', endpoint: 'auth', flow: 'b' },
        ],
        authentication: [
          { type: 'apiKey' },
          { type: 'workflow', stage: 'current', endpoint: 'auth' },
        ],
      },
    ],
    flows: [flow('a'), flow('b')],
    ...overrides,
  }
}

export function execution(overrides: Partial<ExecutionRecord> = {}): ExecutionRecord {
  return {
    id: `e-${Math.random().toString(36).slice(2)}`,
    requestId: 'r-1',
    projectId: 'alice/demo',
    flow: 'a',
    flowVersion: 1,
    trigger: 'http',
    application: 'shop',
    stage: 'prod',
    endpoint: 'orders',
    status: 'succeeded',
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:00.005Z',
    durationMs: 5,
    errorCode: null,
    errorMessage: null,
    ...overrides,
  }
}

export function storeContract(backend: string, options: ContractOptions): void {
  describe(`store contract: ${backend}`, () => {
    let store: Store
    afterEach(async () => {
      await store?.close()
    })
    const open = async () => (store = await options.open())

    it('starts empty at revision 0 and answers ping', async () => {
      await open()
      expect(await store.configuration.revision()).toBe(0)
      expect(await store.configuration.load()).toEqual({ revision: 0, projects: [] })
      expect(await store.ping()).toBe(true)
    })

    it('applies a project and loads it back as written', async () => {
      await open()
      const project = sampleProject()
      const outcome = await store.configuration.applyProject(project)
      expect(outcome).toEqual({
        revision: 1,
        flows: [
          { name: 'a', version: 1, changed: true },
          { name: 'b', version: 1, changed: true },
        ],
      })
      const { revision, projects } = await store.configuration.load()
      expect(revision).toBe(1)
      expect(projects).toHaveLength(1)
      const { appliedAt, ...stored } = projects[0]!
      expect(typeof appliedAt).toBe('string')
      expect(stored).toEqual({
        id: 'alice/demo',
        ...project,
        flows: project.flows.map((f) => ({ ...f, version: 1 })),
      })
    })

    it('is idempotent: the same project again keeps every flow version', async () => {
      await open()
      await store.configuration.applyProject(sampleProject())
      const again = await store.configuration.applyProject(sampleProject())
      expect(again.flows.every((f) => f.version === 1 && !f.changed)).toBe(true)
      expect(again.revision).toBe(2)
    })

    it('makes a new version of a changed flow, and deployments follow the latest', async () => {
      await open()
      await store.configuration.applyProject(sampleProject())
      const changed = flow('a', '2')
      const outcome = await store.configuration.applyProject(
        sampleProject({ flows: [changed, flow('b')] }),
      )
      expect(outcome.flows).toEqual([
        { name: 'a', version: 2, changed: true },
        { name: 'b', version: 1, changed: false },
      ])
      const a = (await store.configuration.load()).projects[0]!.flows.find((f) => f.name === 'a')
      expect(a).toEqual({ ...changed, version: 2 })
      // Going back to the first source makes version 3, not a return to 1.
      const back = await store.configuration.applyProject(sampleProject())
      expect(back.flows[0]).toEqual({ name: 'a', version: 3, changed: true })
    })

    it('drops flows, applications and keys that the project no longer has', async () => {
      await open()
      await store.configuration.applyProject(sampleProject())
      await store.configuration.applyProject(
        sampleProject({ flows: [flow('a')], applications: [], apiKeys: [] }),
      )
      const project = (await store.configuration.load()).projects[0]!
      expect(project.flows.map((f) => f.name)).toEqual(['a'])
      expect(project.applications).toEqual([])
      expect(project.apiKeys).toEqual([])
    })

    it('keeps several projects apart and refuses names or key hashes another project holds', async () => {
      await open()
      await store.configuration.applyProject(sampleProject())
      const other = sampleProject({ owner: 'carol', name: 'p2', apiKeys: [], applications: [] })
      await store.configuration.applyProject(other)
      expect((await store.configuration.load()).projects.map((p) => p.id)).toEqual([
        'alice/demo',
        'carol/p2',
      ])

      const stealsApp = sampleProject({ owner: 'carol', name: 'p2', apiKeys: [] })
      await expect(store.configuration.applyProject(stealsApp)).rejects.toMatchObject({
        code: 'APPLY_CONFLICT',
      })
      const stealsKey = sampleProject({ owner: 'carol', name: 'p2', applications: [] })
      await expect(store.configuration.applyProject(stealsKey)).rejects.toMatchObject({
        code: 'APPLY_CONFLICT',
      })
      // All or nothing: the refused applies changed nothing.
      const p2 = (await store.configuration.load()).projects.find((p) => p.id === 'carol/p2')!
      expect(p2.applications).toEqual([])
      expect(p2.apiKeys).toEqual([])
      expect(await store.configuration.revision()).toBe(2)
    })

    it('stores executions in batches and lists them newest first, by flow, with a limit', async () => {
      await open()
      const records = Array.from({ length: 1500 }, (_, i) =>
        execution({
          id: `e${String(i).padStart(5, '0')}`,
          flow: i % 2 ? 'a' : 'b',
          startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, i)).toISOString(),
        }),
      )
      await store.executions.insertMany(records)
      const newest = await store.executions.list({ limit: 3 })
      expect(newest.map((e) => e.id)).toEqual(['e01499', 'e01498', 'e01497'])
      const onlyB = await store.executions.list({ flow: 'b', limit: 2 })
      expect(onlyB.map((e) => e.id)).toEqual(['e01498', 'e01496'])
      expect(await store.executions.get('e00007')).toEqual(records[7])
      expect(await store.executions.get('nope')).toBeUndefined()
      const failed = execution({
        id: 'f1',
        status: 'failed',
        errorCode: 'E_X',
        errorMessage: 'boom',
        requestId: 'r-9',
      })
      await store.executions.insertMany([failed])
      expect(await store.executions.list({ requestId: 'r-9', limit: 10 })).toEqual([failed])
    })

    it('stores a batch mixing business executions and trigger runs with their queue fields', async () => {
      await open()
      const business = execution({ id: 'm1' })
      const triggered = execution({
        id: 'm2',
        trigger: 'trigger',
        application: null,
        stage: null,
        endpoint: null,
        workerGroup: 'batch',
        attempts: 1,
        maxAttempts: 1,
        result: { total: 7.5, items: ['a'] },
      })
      const failedRun = execution({
        id: 'm3',
        trigger: 'trigger',
        status: 'failed',
        errorCode: 'E_X',
        errorMessage: 'boom',
        workerGroup: 'default',
        attempts: 1,
        maxAttempts: 1,
        error: { code: 'E_X', message: 'boom', flow: 'a' },
      })
      await store.executions.insertMany([business, triggered, failedRun])
      expect(await store.executions.get('m2')).toMatchObject({
        workerGroup: 'batch',
        attempts: 1,
        result: { total: 7.5, items: ['a'] },
      })
      expect(await store.executions.get('m3')).toMatchObject({
        status: 'failed',
        error: { code: 'E_X', message: 'boom', flow: 'a' },
      })
      const plain = await store.executions.get('m1')
      expect(plain).toMatchObject({ id: 'm1', trigger: 'http', application: 'shop' })
      expect(plain?.result ?? null).toBeNull()
    })

    const job = (id: string, overrides: Partial<NewJob> = {}): NewJob => ({
      id,
      requestId: `req-${id}`,
      projectId: 'alice/demo',
      flow: 'a',
      flowVersion: 1,
      workerGroup: 'default',
      maxAttempts: 2,
      inputs: { n: 1 },
      body: { n: 1 },
      context: { userName: 'alice' },
      queuedAt: new Date('2026-01-01T00:00:00.000Z'),
      ...overrides,
    })
    const t = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms)

    it('queues jobs durably and leases each to one worker, oldest first, by group', async () => {
      await open()
      await store.queue.enqueue(job('j1'))
      await store.queue.enqueue(job('j2', { queuedAt: t(1) }))
      await store.queue.enqueue(job('j3', { workerGroup: 'batch' }))
      expect(await store.executions.get('j1')).toMatchObject({
        status: 'queued',
        workerGroup: 'default',
        attempts: 0,
        maxAttempts: 2,
        trigger: 'trigger',
      })
      const first = await store.queue.claim('w1', ['default'], 1000, t(10))
      expect(first).toMatchObject({
        id: 'j1',
        attempts: 1,
        inputs: { n: 1 },
        body: { n: 1 },
        context: { userName: 'alice' },
      })
      const second = await store.queue.claim('w2', ['default'], 1000, t(10))
      expect(second?.id).toBe('j2')
      expect(await store.queue.claim('w3', ['default'], 1000, t(10))).toBeUndefined()
      expect((await store.queue.claim('w3', ['batch', 'other'], 1000, t(10)))?.id).toBe('j3')
      expect(await store.executions.get('j1')).toMatchObject({ status: 'running', attempts: 1 })
    })

    it('records the outcome only for the worker holding the lease', async () => {
      await open()
      await store.queue.enqueue(job('j1'))
      await store.queue.claim('w1', ['default'], 1000, t(10))
      const done = {
        status: 'succeeded' as const,
        result: { ok: true },
        finishedAt: t(20),
        durationMs: 10,
      }
      expect(await store.queue.complete('j1', 'intruder', done)).toBe(false)
      expect(await store.queue.renew('j1', 'intruder', 1000, t(15))).toBe(false)
      expect(await store.queue.renew('j1', 'w1', 1000, t(15))).toBe(true)
      expect(await store.queue.complete('j1', 'w1', done)).toBe(true)
      expect(await store.executions.get('j1')).toMatchObject({
        status: 'succeeded',
        result: { ok: true },
        durationMs: 10,
        finishedAt: t(20).toISOString(),
      })
      expect(await store.queue.complete('j1', 'w1', done)).toBe(false)

      await store.queue.enqueue(job('j2'))
      await store.queue.claim('w1', ['default'], 1000, t(30))
      const error = { code: 'E_X', message: 'boom', flow: 'a', step: 'steps[0]' }
      await store.queue.complete('j2', 'w1', {
        status: 'failed',
        error,
        finishedAt: t(40),
        durationMs: 10,
      })
      expect(await store.executions.get('j2')).toMatchObject({
        status: 'failed',
        error,
        errorCode: 'E_X',
      })
    })

    it('gives a released job back without counting the attempt', async () => {
      await open()
      await store.queue.enqueue(job('j1'))
      await store.queue.claim('w1', ['default'], 1000, t(10))
      expect(await store.queue.release('j1', 'w1', t(20))).toBe(true)
      expect(await store.executions.get('j1')).toMatchObject({ status: 'queued', attempts: 0 })
      expect((await store.queue.claim('w2', ['default'], 1000, t(30)))?.attempts).toBe(1)
    })

    it('retries a job whose lease expired, after a backoff, then fails it when out of attempts', async () => {
      await open()
      await store.queue.enqueue(job('j1'))
      await store.queue.claim('dead', ['default'], 100, t(0))
      expect(await store.queue.recoverExpired(t(50), () => 1000)).toEqual({
        retried: [],
        failed: [],
      })
      expect(await store.queue.recoverExpired(t(200), () => 1000)).toEqual({
        retried: ['j1'],
        failed: [],
      })
      expect(await store.executions.get('j1')).toMatchObject({
        status: 'queued',
        attempts: 1,
        errorCode: 'WORKER_LOST',
      })
      expect(await store.queue.claim('w2', ['default'], 100, t(500))).toBeUndefined() // backoff
      expect((await store.queue.claim('w2', ['default'], 100, t(1300)))?.attempts).toBe(2)
      expect(await store.queue.recoverExpired(t(2000), () => 1000)).toEqual({
        retried: [],
        failed: ['j1'],
      })
      expect(await store.executions.get('j1')).toMatchObject({
        status: 'failed',
        attempts: 2,
        errorCode: 'WORKER_LOST',
        error: { code: 'WORKER_LOST' },
      })
    })

    it('knows the live workers by their heartbeats', async () => {
      await open()
      const worker = {
        id: 'w1',
        groups: ['default', 'batch'],
        concurrency: 4,
        host: 'h',
        pid: 1,
        startedAt: t(0),
      }
      await store.queue.heartbeat(worker, t(1000))
      await store.queue.heartbeat({ ...worker, id: 'w2', groups: ['old'] }, t(0))
      expect((await store.queue.liveWorkers(t(500))).map((w) => [w.id, w.groups])).toEqual([
        ['w1', ['default', 'batch']],
      ])
      await store.queue.heartbeat(worker, t(2000))
      expect(await store.queue.liveWorkers(t(1500))).toHaveLength(1)
      await store.queue.removeWorker('w1')
      expect(await store.queue.liveWorkers(t(0))).toHaveLength(1)
    })

    if (options.reopen) {
      it('keeps everything across a restart', async () => {
        await open()
        await store.configuration.applyProject(sampleProject())
        await store.executions.insertMany([execution({ id: 'kept' })])
        await store.close()
        store = await options.reopen!()
        expect((await store.configuration.load()).projects[0]?.id).toBe('alice/demo')
        expect(await store.executions.get('kept')).toBeDefined()
      })
    }
  })
}
