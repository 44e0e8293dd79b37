/**
 * `flowgate serve`: applies the project to the store (idempotently), serves it, and with
 * --watch re-applies on every change (keeping the running configuration when the new one is
 * invalid). SIGTERM or SIGINT drain in-flight requests, write pending executions and exit 0.
 */
import cluster from 'node:cluster'
import { resolve } from 'node:path'
import type { ConfigOverrides } from '../../config.js'
import { loadCliConfig } from '../load-cli-config.js'
import { createLogger } from '../../logging.js'
import { formatDiagnostic, type Diagnostic } from '../../project/source-document.js'
import { buildServer } from '../../server.js'
import type { ApplyResult } from '../../services/apply-project.js'
import { SqliteStore } from '../../storage/sqlite/sqlite-store.js'
import type { CliIO } from '../io.js'

export interface ServeOptions extends ConfigOverrides {
  project?: string
  /** Gateway processes sharing the port (node:cluster). */
  workers?: string
}

export async function serveCommand(
  options: ServeOptions,
  io: CliIO,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const processes = options.workers === undefined ? 1 : Number(options.workers)
  if (!Number.isInteger(processes) || processes < 1 || processes > 64) {
    io.err(`flowgate serve: --workers must be a whole number from 1 to 64\n`)
    return 1
  }
  if (processes > 1 && cluster.isPrimary) {
    const { servePrimary } = await import('./serve-cluster.js')
    return servePrimary(options, processes, io, env)
  }
  // A process of a cluster serves what the primary applied, and follows later applies.
  const inCluster = cluster.isWorker
  const config = loadCliConfig('serve', env, options, io)
  if (config === undefined) return 1
  const logger = createLogger({ level: config.logLevel })
  const store = await SqliteStore.open(config.dataDirectory)
  const server = await buildServer({ config, store, logger })
  const stop = async () => {
    await server.close()
    await store.close()
    logger.flush()
  }

  if (config.projectDirectory !== undefined && !inCluster) {
    const result = await server.applyDirectory(config.projectDirectory)
    report(result, config.projectDirectory, io)
    if (result.kind === 'invalid') {
      if (!config.watch || (await store.configuration.revision()) === 0) {
        io.err(`flowgate serve: the project is invalid; nothing is served\n`)
        await stop()
        return 1
      }
      io.err(
        `flowgate serve: keeping the configuration applied before; fix the project to apply it\n`,
      )
      await server.reload()
    }
  } else {
    await server.reload()
  }

  try {
    await server.app.listen({ port: config.port, host: config.host })
  } catch (error) {
    io.err(
      `flowgate serve: cannot listen on ${config.host}:${config.port}: ${(error as Error).message}\n`,
    )
    await stop()
    return 1
  }
  const address = server.app.server.address()
  const port = typeof address === 'object' && address !== null ? address.port : config.port
  const host = config.host.includes(':') ? `[${config.host}]` : config.host
  if (!inCluster) io.out(`flowgate listening on http://${host}:${port}\n`)

  const projectDirectory = config.projectDirectory
  const watcher =
    config.watch && projectDirectory !== undefined && !inCluster
      ? await watchProject(
          () => server.applyDirectory(projectDirectory),
          projectDirectory,
          config.dataDirectory,
          io,
        )
      : undefined

  return new Promise<number>((done) => {
    let stopping = false
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) {
        // In a cluster the primary forwards the signal the process may also have received.
        if (inCluster) return
        io.err(`flowgate serve: ${signal} again, exiting now\n`)
        process.exit(1)
      }
      stopping = true
      io.err(`flowgate serve: ${signal}, draining in-flight requests\n`)
      void (async () => {
        await watcher?.close()
        await stop()
        process.off('SIGTERM', onSignal)
        process.off('SIGINT', onSignal)
        // The channel to the primary would keep a cluster process alive.
        cluster.worker?.disconnect()
        done(0)
      })()
    }
    process.on('SIGTERM', onSignal)
    process.on('SIGINT', onSignal)
  })
}

export function report(result: ApplyResult, directory: string, io: CliIO): void {
  const lines = (diagnostics: Diagnostic[]) =>
    diagnostics.map((d) => `${formatDiagnostic(d)}\n`).join('')
  if (result.kind === 'invalid') {
    io.err(lines(result.diagnostics))
    return
  }
  io.err(lines(result.warnings))
  const changed = result.outcome.flows.filter((f) => f.changed)
  io.out(
    `applied ${directory} (revision ${result.outcome.revision}; ${result.outcome.flows.length} flows` +
      `${changed.length > 0 ? `, new versions: ${changed.map((f) => `${f.name} v${f.version}`).join(', ')}` : ''})\n`,
  )
}

/** Re-applies the project when its files change, a short while after the last change. */
export async function watchProject(
  apply: () => Promise<ApplyResult>,
  directory: string,
  dataDirectory: string,
  io: CliIO,
) {
  const data = resolve(dataDirectory)
  const { watch } = await import('chokidar')
  const watcher = watch(directory, {
    ignoreInitial: true,
    ignored: (path) =>
      resolve(path).startsWith(data) || /(^|[/\\])(node_modules|\.git)([/\\]|$)/.test(path),
    awaitWriteFinish: { stabilityThreshold: 100, pollInterval: 25 },
  })
  let timer: NodeJS.Timeout | undefined
  watcher.on('all', () => {
    if (timer) clearTimeout(timer)
    timer = setTimeout(() => {
      void apply().then(
        (result) => {
          report(result, directory, io)
          if (result.kind === 'invalid')
            io.err(
              `flowgate serve: the change is invalid; still serving the previous configuration\n`,
            )
        },
        (error: unknown) =>
          io.err(`flowgate serve: applying failed: ${(error as Error).message}\n`),
      )
    }, 150)
  })
  await new Promise<void>((ready) => watcher.once('ready', () => ready()))
  io.out(`watching ${directory} for changes\n`)
  return watcher
}
