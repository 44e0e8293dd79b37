/**
 * `flowgate serve --workers N`: N gateway processes on one port (node:cluster), sharing the
 * store. The primary applies the project (and re-applies it with --watch); each process serves
 * what the store holds and follows the revision the primary writes. A process that dies is
 * replaced; SIGTERM or SIGINT drain every process, then the primary exits 0.
 */
import cluster, { type Worker } from 'node:cluster'
import { loadCliConfig } from '../load-cli-config.js'
import { applyProjectDirectory } from '../../services/apply-project.js'
import { SqliteStore } from '../../storage/sqlite/sqlite-store.js'
import type { CliIO } from '../io.js'
import { report, watchProject, type ServeOptions } from './serve.js'

export async function servePrimary(
  options: ServeOptions,
  processes: number,
  io: CliIO,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const config = loadCliConfig('serve', env, options, io)
  if (config === undefined) return 1
  const store = await SqliteStore.open(config.dataDirectory)
  const directory = config.projectDirectory
  if (directory !== undefined) {
    const result = await applyProjectDirectory(store, directory)
    report(result, directory, io)
    if (
      result.kind === 'invalid' &&
      (!config.watch || (await store.configuration.revision()) === 0)
    ) {
      io.err(`flowgate serve: the project is invalid; nothing is served\n`)
      await store.close()
      return 1
    }
  }

  let stopping = false
  const workers = new Set<Worker>()
  const fork = () => {
    const worker = cluster.fork()
    workers.add(worker)
    worker.on('exit', (code, signal) => {
      workers.delete(worker)
      if (!stopping) {
        io.err(
          `flowgate serve: gateway process ${worker.process.pid} exited (${signal ?? code}); starting another\n`,
        )
        fork()
      }
    })
  }
  const listening = new Promise<number>((resolve) => {
    let count = 0
    cluster.on('listening', (_worker, address) => {
      if (++count === processes) resolve(address.port)
    })
  })
  for (let i = 0; i < processes; i++) fork()
  const port = await listening
  const host = config.host.includes(':') ? `[${config.host}]` : config.host
  io.out(`flowgate listening on http://${host}:${port} (${processes} gateway processes)\n`)

  const watcher =
    config.watch && directory !== undefined
      ? await watchProject(
          () => applyProjectDirectory(store, directory),
          directory,
          config.dataDirectory,
          io,
        )
      : undefined

  return new Promise<number>((done) => {
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) process.exit(1)
      stopping = true
      io.err(`flowgate serve: ${signal}, draining ${workers.size} gateway processes\n`)
      void (async () => {
        await watcher?.close()
        await Promise.all(
          [...workers].map(
            (worker) =>
              new Promise<void>((resolve) => {
                worker.once('exit', () => resolve())
                worker.process.kill('SIGTERM')
              }),
          ),
        )
        await store.close()
        process.off('SIGTERM', onSignal)
        process.off('SIGINT', onSignal)
        done(0)
      })()
    }
    process.on('SIGTERM', onSignal)
    process.on('SIGINT', onSignal)
  })
}
