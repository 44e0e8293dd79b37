/**
 * Nothing accepted is ever lost: queued runs of a slow flow survive `kill -9` of their worker.
 * A gateway (without workers) and a `flowgate worker` share one store; the worker is killed
 * mid-run and started again; every run ends succeeded, and a run that completed twice at
 * the slow service is one reported as a retry (attempts > 1).
 */
import { spawn } from 'node:child_process'
import { createServer } from 'node:http'
import { mkdtempSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { SqliteStore } from '../../src/storage/sqlite/sqlite-store.js'
import { binPath, repoRoot } from '../helpers/cli.js'
import { projectDir } from '../helpers/project-dir.js'
import { startServe, type ServeProcess } from '../helpers/serve-process.js'

const env = {
  FLOWGATE_LEASE_MS: '1000',
  FLOWGATE_RETRY_BACKOFF_MS: '100',
  FLOWGATE_HEARTBEAT_MS: '200',
  LOG_LEVEL: 'error',
}

function startWorker(data: string) {
  const child = spawn(
    binPath,
    ['worker', '--groups', 'default', '--data', data, '--concurrency', '4'],
    {
      cwd: repoRoot,
      env: { ...process.env, NODE_OPTIONS: '', ...env },
    },
  )
  let out = ''
  child.stdout.on('data', (c: Buffer) => (out += c.toString()))
  child.stderr.on('data', (c: Buffer) => (out += c.toString()))
  const ready = new Promise<void>((resolve, reject) => {
    const check = setInterval(() => {
      if (/serving worker groups default/.test(out)) {
        clearInterval(check)
        resolve()
      } else if (child.exitCode !== null) {
        clearInterval(check)
        reject(new Error(out))
      }
    }, 20)
  })
  return {
    child,
    ready,
    exited: new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code))),
  }
}

let serve: ServeProcess | undefined
const slowHits = new Map<string, number>()
const slow = createServer((req, res) => {
  const id = new URL(req.url ?? '/', 'http://x').searchParams.get('id') ?? '?'
  setTimeout(() => {
    slowHits.set(id, (slowHits.get(id) ?? 0) + 1)
    res.setHeader('content-type', 'application/json')
    res.end('{"done":true}')
  }, 1500)
})
afterAll(async () => {
  await serve?.stop('SIGKILL')
  slow.close()
})

describe('kill -9 of a worker', () => {
  it('leaves every accepted run to be retried or failed, never stuck', async () => {
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve))
    const slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/work`
    const data = mkdtempSync(join(tmpdir(), 'flowgate-crash-'))
    const dir = projectDir({
      'flowgate.yaml': `owner: alice\nproject: demo\napiKeys:\n  - { name: k, user: alice, sha256: ${(await import('node:crypto')).createHash('sha256').update('crash-key').digest('hex')} }\n`,
      'flows/slow.flow.yaml': `name: slow
start:
  variables:
    - { name: answer, type: object }
steps:
  - http: { url: "{% '${slowUrl}?id=' & $context.executionId %}", timeoutMs: 10000, into: answer }
  - assign: { result: "{% $answer.body %}" }
`,
    })
    serve = await startServe(['--project', dir, '--data', data, '--no-queue-workers'], env)
    const ids: string[] = []
    for (let i = 0; i < 8; i++) {
      const response = await fetch(
        `${serve.url}/api/v1/trigger/alice/demo/slow?api_key=crash-key`,
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' },
      )
      expect(response.status).toBe(202)
      ids.push(((await response.json()) as { executionId: string }).executionId)
    }

    const first = startWorker(data)
    await first.ready
    // Let it lease four runs and get into them, then kill it without warning.
    await new Promise((resolve) => setTimeout(resolve, 600))
    first.child.kill('SIGKILL')
    await first.exited

    const second = startWorker(data)
    await second.ready
    const statuses = await Promise.all(
      ids.map(async (id) => {
        const response = await fetch(
          `${serve!.url}/api/v1/executions/${id}?wait=30&api_key=crash-key`,
        )
        return (await response.json()) as { status: string; attempts: number }
      }),
    )
    second.child.kill('SIGTERM')
    expect(await second.exited).toBe(0)

    expect(statuses.map((s) => s.status)).toEqual(ids.map(() => 'succeeded'))
    const retried = statuses.filter((s) => s.attempts > 1).length
    expect(retried).toBeGreaterThan(0) // the killed worker's runs came back
    statuses.forEach((status, i) => {
      const hits = slowHits.get(ids[i]!) ?? 0
      // Succeeded exactly once at the service, unless reported as a retry.
      if (status.attempts === 1) expect(hits).toBe(1)
      else expect(hits).toBeGreaterThanOrEqual(1)
    })
    await serve.stop()
    const store = await SqliteStore.open(data)
    const records = await Promise.all(ids.map((id) => store.executions.get(id)))
    expect(records.every((r) => r?.status === 'succeeded')).toBe(true)
    await store.close()
  }, 60_000)
})
