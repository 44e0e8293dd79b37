/**
 * `flowgate worker --groups a,b --data DIR`: a worker process on the same store as the
 * gateway. It follows the configuration the gateway applies (polling its revision), leases the
 * queued runs of its groups, announces itself with heartbeats, and on SIGTERM finishes its
 * running jobs (or gives them back to the queue) before it exits.
 */
import { createLogger } from '../../logging.js'
import { startLeaseRecovery } from '../../queue/recovery.js'
import { WorkerPool } from '../../queue/worker-pool.js'
import { createJobRunner } from '../../services/job-runner.js'
import {
  buildRuntimeConfiguration,
  type FlowCache,
  type RuntimeConfiguration,
} from '../../services/runtime-configuration.js'
import { loadCliConfig } from '../load-cli-config.js'
import { SqliteStore } from '../../storage/sqlite/sqlite-store.js'
import type { CliIO } from '../io.js'

export interface WorkerOptions {
  groups?: string
  data?: string
  concurrency?: string
  logLevel?: string
}

export async function workerCommand(
  options: WorkerOptions,
  io: CliIO,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const config = loadCliConfig(
    'worker',
    env,
    {
      ...(options.data !== undefined && { data: options.data }),
      ...(options.logLevel !== undefined && { logLevel: options.logLevel }),
      ...(options.concurrency !== undefined && { workerConcurrency: options.concurrency }),
    },
    io,
  )
  if (config === undefined) return 1
  const groups = [
    ...new Set(
      (options.groups ?? 'default')
        .split(',')
        .map((g) => g.trim())
        .filter((g) => g !== ''),
    ),
  ]
  if (groups.length === 0 || groups.some((g) => !/^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/.test(g))) {
    io.err(`flowgate worker: --groups must be a comma-separated list of worker group names\n`)
    return 1
  }
  const logger = createLogger({ level: config.logLevel })
  const store = await SqliteStore.open(config.dataDirectory)
  const cache: FlowCache = new Map()
  let runtime: RuntimeConfiguration = buildRuntimeConfiguration(
    await store.configuration.load(),
    cache,
  )
  const follow = setInterval(() => {
    void store.configuration.revision().then(
      async (revision) => {
        if (revision !== runtime.revision) {
          runtime = buildRuntimeConfiguration(await store.configuration.load(), cache)
          logger.info({ revision }, 'configuration reloaded')
        }
      },
      (err: unknown) => logger.error({ err }, 'reading the configuration revision failed'),
    )
  }, 1_000)

  const shutdown = new AbortController()
  const pool = new WorkerPool(store.queue, {
    groups,
    concurrency: config.workerConcurrency,
    leaseMs: config.leaseMs,
    pollMs: 250,
    heartbeatMs: config.heartbeatMs,
    run: createJobRunner({
      runtime: () => runtime,
      signal: shutdown.signal,
      flowLogger: {
        log: (level, message, fields) => logger[level]({ ...fields, source: 'flow' }, message),
      },
    }),
    onError: (message, err) => logger.warn({ err }, message),
  })
  await pool.start()
  const stopRecovery = startLeaseRecovery(store.queue, config, logger)
  io.out(
    `flowgate worker ${pool.info.id} serving worker groups ${groups.join(', ')} (concurrency ${config.workerConcurrency})\n`,
  )

  return new Promise<number>((done) => {
    let stopping = false
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) process.exit(1)
      stopping = true
      io.err(`flowgate worker: ${signal}, finishing running jobs\n`)
      void (async () => {
        clearInterval(follow)
        await pool.stop(config.requestTimeoutMs)
        stopRecovery()
        shutdown.abort()
        await store.close()
        logger.flush()
        done(0)
      })()
    }
    process.on('SIGTERM', onSignal)
    process.on('SIGINT', onSignal)
  })
}
