/**
 * Periodically requeues (or fails) jobs whose worker stopped renewing its lease: a worker
 * killed mid-run leaves nothing `running` forever. Every gateway and worker process runs one;
 * the update is idempotent, so running it in several places is harmless.
 */
import type { JobQueue } from './queue.js'

export interface RecoveryOptions {
  readonly intervalMs: number
  /** Delay before attempt n+1, after n attempts lost their worker. */
  readonly backoffMs: (attempts: number) => number
  readonly onRecovered: (report: { retried: readonly string[]; failed: readonly string[] }) => void
  readonly onError: (error: unknown) => void
}

export function exponentialBackoff(baseMs: number, maxMs = 60_000): (attempts: number) => number {
  return (attempts) => Math.min(maxMs, baseMs * 2 ** Math.max(0, attempts - 1))
}

export function startRecovery(queue: JobQueue, options: RecoveryOptions): () => void {
  let running = false
  const timer = setInterval(() => {
    if (running) return
    running = true
    queue
      .recoverExpired(new Date(), options.backoffMs)
      .then((report) => {
        if (report.retried.length > 0 || report.failed.length > 0) options.onRecovered(report)
      }, options.onError)
      .finally(() => (running = false))
  }, options.intervalMs)
  timer.unref()
  return () => clearInterval(timer)
}

/** The recovery every gateway and worker process runs, with the configured lease and backoff. */
export function startLeaseRecovery(
  queue: JobQueue,
  settings: { readonly leaseMs: number; readonly retryBackoffMs: number },
  logger: {
    warn: (fields: object, message: string) => void
    error: (fields: object, message: string) => void
  },
): () => void {
  return startRecovery(queue, {
    intervalMs: Math.max(100, Math.floor(settings.leaseMs / 3)),
    backoffMs: exponentialBackoff(settings.retryBackoffMs),
    onRecovered: (report) =>
      logger.warn(report, 'queued runs lost their worker: retried or failed'),
    onError: (err) => logger.error({ err }, 'recovering expired leases failed'),
  })
}
