/** `flowgate serve` as a process: start-up apply, --watch, SIGTERM drain with nothing lost. */
import { mkdtempSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { SqliteStore } from '../../src/storage/sqlite/sqlite-store.js'
import { projectDir } from '../helpers/project-dir.js'
import { startServe, type ServeProcess } from '../helpers/serve-process.js'

const project = {
  'flowgate.yaml': `owner: alice
project: demo
applications:
  - name: app
    owner: alice
    stages: [prod]
    endpoints:
      - { name: hello, method: GET, path: /hello }
    deployments:
      - { stage: prod, endpoint: hello, flow: hello }
`,
  'flows/hello.flow.yaml': 'name: hello\nsteps:\n  - assign: { result: one }\n',
}

let serve: ServeProcess | undefined
afterEach(async () => {
  await serve?.stop('SIGKILL')
  serve = undefined
})

describe('flowgate serve', () => {
  it('applies the project, prints its URL, serves it, and drains on SIGTERM without losing executions', async () => {
    const dir = projectDir(project)
    const data = mkdtempSync(join(tmpdir(), 'flowgate-serve-'))
    serve = await startServe(['--project', dir, '--data', data])
    expect(serve.stdout()).toMatch(/applied .* \(revision 1; 1 flows, new versions: hello v1\)/)
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => fetch(`${serve!.url}/app/prod/hello`)),
    )
    expect(responses.every((r) => r.status === 200)).toBe(true)
    expect(await serve.stop('SIGTERM')).toBe(0)
    const store = await SqliteStore.open(data)
    expect(await store.executions.list({ limit: 100 })).toHaveLength(20)
    await store.close()
  })

  it('is idempotent across restarts: the same project keeps its flow versions', async () => {
    const dir = projectDir(project)
    const data = mkdtempSync(join(tmpdir(), 'flowgate-serve-'))
    serve = await startServe(['--project', dir, '--data', data])
    await serve.stop()
    serve = await startServe(['--project', dir, '--data', data])
    expect(serve.stdout()).toMatch(/applied .* \(revision 2; 1 flows\)/)
  })

  it('refuses to start on an invalid project, printing every problem', async () => {
    const dir = projectDir({
      ...project,
      'flows/hello.flow.yaml': 'name: hello\nsteps:\n  - teleport: {}\n',
    })
    await expect(
      startServe(['--project', dir, '--data', mkdtempSync(join(tmpdir(), 'flowgate-serve-'))]),
    ).rejects.toThrow(
      /hello\.flow\.yaml:3:5 unknown step 'teleport'[\s\S]*the project is invalid; nothing is served/,
    )
  })

  it('with --watch, applies changes and keeps the old configuration when a change is invalid', async () => {
    const dir = projectDir(project)
    serve = await startServe([
      '--project',
      dir,
      '--data',
      mkdtempSync(join(tmpdir(), 'flowgate-serve-')),
      '--watch',
    ])
    await serve.waitFor(/watching .* for changes/)
    expect(await (await fetch(`${serve.url}/app/prod/hello`)).json()).toEqual({ result: 'one' })

    writeFileSync(
      join(dir, 'flows/hello.flow.yaml'),
      'name: hello\nsteps:\n  - assign: { result: two }\n',
    )
    await serve.waitFor(/new versions: hello v2/)
    expect(await (await fetch(`${serve.url}/app/prod/hello`)).json()).toEqual({ result: 'two' })

    writeFileSync(
      join(dir, 'flows/hello.flow.yaml'),
      'name: hello\nsteps:\n  - assign: { result: "{% 1 + %}" }\n',
    )
    await serve.waitFor(/still serving the previous configuration/)
    expect(serve.stderr()).toMatch(/hello\.flow\.yaml:3:\d+ expression syntax error/)
    expect(await (await fetch(`${serve.url}/app/prod/hello`)).json()).toEqual({ result: 'two' })
  })
})

describe('flowgate serve shutdown', () => {
  it('lets a request in flight finish on SIGTERM, then exits 0', async () => {
    const { createServer } = await import('node:http')
    const slowService = createServer((_req, res) => setTimeout(() => res.end('{"late":true}'), 700))
    await new Promise<void>((resolve) => slowService.listen(0, '127.0.0.1', resolve))
    const port = (slowService.address() as AddressInfo).port
    const dir = projectDir({
      ...project,
      'flows/hello.flow.yaml': `name: hello\nstart:\n  variables:\n    - { name: answer, type: object }\nsteps:\n  - http: { url: "http://127.0.0.1:${port}/", into: answer }\n  - assign: { result: "{% $answer.status %}" }\n`,
    })
    try {
      serve = await startServe([
        '--project',
        dir,
        '--data',
        mkdtempSync(join(tmpdir(), 'flowgate-serve-')),
      ])
      const inFlight = fetch(`${serve.url}/app/prod/hello`)
      await new Promise((resolve) => setTimeout(resolve, 200))
      const exited = serve.stop('SIGTERM')
      const response = await inFlight
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual({ result: 200 })
      expect(await exited).toBe(0)
    } finally {
      slowService.close()
    }
  })
})

describe('flowgate serve --workers N', () => {
  it('serves from several processes on one port, all following an apply made through any of them', async () => {
    const dir = projectDir(project)
    serve = await startServe(
      [
        '--project',
        dir,
        '--data',
        mkdtempSync(join(tmpdir(), 'flowgate-serve-')),
        '--workers',
        '2',
      ],
      {
        FLOWGATE_ADMIN_TOKEN: 'cluster-token',
        FLOWGATE_FOLLOW_REVISION_MS: '100',
      },
    )
    expect(serve.stdout()).toContain('(2 gateway processes)')
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => fetch(`${serve!.url}/app/prod/hello`).then((r) => r.json())),
    )
    expect(answers.every((a) => JSON.stringify(a) === '{"result":"one"}')).toBe(true)

    const applied = await fetch(`${serve.url}/admin/v1/apply`, {
      method: 'POST',
      headers: { authorization: 'Bearer cluster-token', 'content-type': 'application/json' },
      body: JSON.stringify({
        project: project['flowgate.yaml'],
        flows: ['name: hello\nsteps:\n  - assign: { result: two }\n'],
      }),
    })
    expect(applied.status).toBe(200)
    const deadline = Date.now() + 5000
    let fresh = false
    while (!fresh && Date.now() < deadline) {
      const batch = await Promise.all(
        Array.from({ length: 20 }, () =>
          fetch(`${serve!.url}/app/prod/hello`).then((r) => r.json()),
        ),
      )
      fresh = batch.every((a) => JSON.stringify(a) === '{"result":"two"}')
      if (!fresh) await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(fresh).toBe(true)
    expect(await serve.stop('SIGTERM')).toBe(0)
  })
})
