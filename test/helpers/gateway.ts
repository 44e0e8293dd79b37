/**
 * Starts a real gateway for a test: a project written to a temp directory, applied to a fresh
 * SQLite store, served by the composition root. `inject` for speed; `listen` for a real socket.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import { loadConfig } from '../../src/config.js'
import { createLogger } from '../../src/logging.js'
import { buildServer, type FlowgateServer } from '../../src/server.js'
import { SqliteStore } from '../../src/storage/sqlite/sqlite-store.js'
import { projectDir } from './project-dir.js'

export interface TestGateway {
  server: FlowgateServer
  store: SqliteStore
  logs: string[]
  directory: string
  inject(options: InjectOptions | string): Promise<LightMyRequestResponse>
  /** The JSON body of an injected request. */
  json(
    options: InjectOptions | string,
  ): Promise<{ status: number; body: any; headers: Record<string, unknown> }>
  listen(): Promise<string>
  close(): Promise<void>
}

export async function startGateway(
  files: Record<string, string>,
  env: Record<string, string> = {},
): Promise<TestGateway> {
  const directory = projectDir(files)
  const store = await SqliteStore.open(mkdtempSync(join(tmpdir(), 'flowgate-data-')))
  const logs: string[] = []
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(
        ...chunk
          .toString()
          .split('\n')
          .filter((l) => l !== ''),
      )
      callback()
    },
  })
  const config = loadConfig(
    { FLOWGATE_EXECUTION_FLUSH_MS: '5', ...env },
    { project: directory, port: 0 },
  )
  const logger = createLogger({ level: 'info', destination })
  const server = await buildServer({ config, store, logger })
  const applied = await server.applyDirectory(directory)
  if (applied.kind === 'invalid') {
    await server.close()
    await store.close()
    throw new Error(`test project is invalid: ${JSON.stringify(applied.diagnostics)}`)
  }
  const gateway: TestGateway = {
    server,
    store,
    logs,
    directory,
    inject: (options) => server.app.inject(options),
    async json(options) {
      const response = await server.app.inject(options)
      let body: unknown = response.body
      try {
        body = response.json()
      } catch {
        // not JSON: keep the text
      }
      return { status: response.statusCode, body, headers: response.headers }
    },
    async listen() {
      await server.app.listen({ port: 0, host: '127.0.0.1' })
      const address = server.app.server.address()
      if (address === null || typeof address === 'string') throw new Error('no address')
      return `http://127.0.0.1:${address.port}`
    },
    async close() {
      await server.close()
      await store.close()
    },
  }
  return gateway
}

/** Waits until the batched recorder has written what it holds. */
export async function settle(_gateway: TestGateway): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 30))
}
