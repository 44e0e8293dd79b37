import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { SqliteStore } from '../storage/sqlite/sqlite-store.js'
import type { JobOutcome, NewJob } from './queue.js'
import { WorkerPool } from './worker-pool.js'

const job = (id: string): NewJob => ({
  id,
  requestId: id,
  projectId: 'alice/demo',
  flow: 'f',
  flowVersion: 1,
  workerGroup: 'default',
  maxAttempts: 3,
  inputs: {},
  body: {},
  context: {},
  queuedAt: new Date(),
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
let store: SqliteStore
afterEach(async () => store?.close())

function pool(runMs: number, concurrency = 2, pollMs = 20) {
  return new WorkerPool(store.queue, {
    groups: ['default'],
    concurrency,
    leaseMs: 5000,
    pollMs,
    heartbeatMs: 100,
    run: async (): Promise<JobOutcome> => {
      await sleep(runMs)
      return { status: 'succeeded', result: 'ok', finishedAt: new Date(), durationMs: runMs }
    },
    onError: () => undefined,
  })
}

describe('WorkerPool', () => {
  it('runs queued jobs up to its concurrency and records their outcome', async () => {
    store = await SqliteStore.open(mkdtempSync(join(tmpdir(), 'flowgate-pool-')))
    for (const id of ['a', 'b', 'c']) await store.queue.enqueue(job(id))
    const workers = pool(100)
    await workers.start()
    await sleep(50)
    expect(workers.busy).toBe(2)
    await sleep(400)
    for (const id of ['a', 'b', 'c'])
      expect(await store.executions.get(id)).toMatchObject({ status: 'succeeded', result: 'ok' })
    await workers.stop(1000)
  })

  it('finishes running jobs on a graceful stop when they end in time', async () => {
    store = await SqliteStore.open(mkdtempSync(join(tmpdir(), 'flowgate-pool-')))
    await store.queue.enqueue(job('a'))
    const workers = pool(200)
    await workers.start()
    await sleep(50)
    await workers.stop(2000)
    expect(await store.executions.get('a')).toMatchObject({ status: 'succeeded', attempts: 1 })
    expect(await store.queue.liveWorkers(new Date(0))).toEqual([])
  })

  it('gives running jobs back to the queue when they do not end in time', async () => {
    store = await SqliteStore.open(mkdtempSync(join(tmpdir(), 'flowgate-pool-')))
    await store.queue.enqueue(job('a'))
    const workers = pool(5000)
    await workers.start()
    await sleep(50)
    await workers.stop(100)
    expect(await store.executions.get('a')).toMatchObject({ status: 'queued', attempts: 0 })
  })

  it('runs a synchronous trigger in a free slot, and refuses when full', async () => {
    store = await SqliteStore.open(mkdtempSync(join(tmpdir(), 'flowgate-pool-')))
    const workers = pool(10, 1)
    await workers.start()
    const slow = workers.runDirect(() => sleep(100).then(() => 'first'))
    expect(await workers.runDirect(() => Promise.resolve('second'))).toBeUndefined()
    expect(await slow).toBe('first')
    expect(await workers.runDirect(() => Promise.resolve('third'))).toBe('third')
    await workers.stop(100)
  })

  it('starts a job queued while every slot was busy as soon as a synchronous run ends', async () => {
    store = await SqliteStore.open(mkdtempSync(join(tmpdir(), 'flowgate-pool-')))
    // Polling every 10 s: only the end of the direct run can start the queued job in time.
    const workers = pool(10, 1, 10_000)
    await workers.start()
    await sleep(50)
    const slow = workers.runDirect(() => sleep(100).then(() => 'first'))
    await store.queue.enqueue(job('waiting'))
    workers.nudge()
    await slow
    await sleep(300)
    expect(await store.executions.get('waiting')).toMatchObject({ status: 'succeeded' })
    await workers.stop(100)
  })

  it('does not poll the queue after synchronous runs when no job waits for a slot', async () => {
    store = await SqliteStore.open(mkdtempSync(join(tmpdir(), 'flowgate-pool-')))
    let claims = 0
    const claim = store.queue.claim.bind(store.queue)
    store.queue.claim = (...args) => {
      claims++
      return claim(...args)
    }
    const workers = pool(10, 2, 10_000)
    await workers.start()
    await sleep(50)
    const before = claims
    for (let i = 0; i < 20; i++) await workers.runDirect(() => Promise.resolve(i))
    await sleep(50)
    expect(claims).toBe(before)
    await workers.stop(100)
  })
})
