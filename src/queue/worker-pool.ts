/**
 * A pool of workers for some worker groups, in one process: it announces itself (heartbeats),
 * leases jobs up to its concurrency, keeps their leases alive while they run, records their
 * outcome, and on a graceful stop finishes what it can and gives the rest back. Local
 * synchronous triggers also run here (`runDirect`), so they count against the same
 * concurrency.
 */
import { hostname } from 'node:os'
import { randomUUID } from 'node:crypto'
import type { Job, JobOutcome, JobQueue, WorkerInfo } from './queue.js'

export interface WorkerPoolOptions {
  readonly groups: readonly string[]
  readonly concurrency: number
  readonly leaseMs: number
  readonly pollMs: number
  readonly heartbeatMs: number
  /** Runs one job to its outcome (never throws for a flow's own failure). */
  readonly run: (job: Job) => Promise<JobOutcome>
  readonly onError: (message: string, error: unknown) => void
  readonly now?: () => Date
}

export class WorkerPool {
  readonly info: WorkerInfo
  private readonly running = new Map<string, Promise<void>>()
  private direct = 0
  /** A poll stopped with every slot busy: queued jobs may be waiting for the next free one. */
  private full = false
  private stopping = false
  private pollTimer: NodeJS.Timeout | undefined
  private heartbeatTimer: NodeJS.Timeout | undefined
  private polling: Promise<void> | undefined
  private readonly now: () => Date
  /** Wakes waiters when a job finishes (long-polls of local executions). */
  private readonly listeners = new Set<(id: string) => void>()

  constructor(
    private readonly queue: JobQueue,
    private readonly options: WorkerPoolOptions,
  ) {
    this.now = options.now ?? (() => new Date())
    this.info = {
      id: `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`,
      groups: [...options.groups],
      concurrency: options.concurrency,
      host: hostname(),
      pid: process.pid,
      startedAt: this.now(),
    }
  }

  get busy(): number {
    return this.running.size + this.direct
  }

  serves(group: string): boolean {
    return this.info.groups.includes(group)
  }

  async start(): Promise<void> {
    await this.queue.heartbeat(this.info, this.now())
    this.heartbeatTimer = setInterval(() => {
      this.queue
        .heartbeat(this.info, this.now())
        .catch((error: unknown) => this.options.onError('heartbeat failed', error))
    }, this.options.heartbeatMs)
    this.heartbeatTimer.unref()
    this.schedule(0)
  }

  /** Wakes the poller now (a job was just queued for one of our groups). */
  nudge(): void {
    if (!this.stopping) this.schedule(0)
  }

  onFinished(listener: (id: string) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /**
   * Runs a synchronous trigger here when a slot is free; undefined when the pool is full (the
   * caller then queues it).
   */
  async runDirect<T>(task: () => Promise<T>): Promise<T | undefined> {
    if (this.stopping || this.busy >= this.options.concurrency) return undefined
    this.direct++
    try {
      return await task()
    } finally {
      this.direct--
      // Only when jobs may be waiting for this slot: polling after every synchronous run
      // cost a claim query per request.
      if (this.full) this.nudge()
    }
  }

  private schedule(delayMs: number): void {
    if (this.pollTimer) clearTimeout(this.pollTimer)
    this.pollTimer = setTimeout(() => {
      this.pollTimer = undefined
      this.polling ??= this.poll().finally(() => {
        this.polling = undefined
        if (!this.stopping) this.schedule(this.options.pollMs)
      })
    }, delayMs)
    this.pollTimer.unref()
  }

  private async poll(): Promise<void> {
    this.full = false
    while (!this.stopping) {
      if (this.busy >= this.options.concurrency) {
        this.full = true
        return
      }
      let job: Job | undefined
      try {
        job = await this.queue.claim(
          this.info.id,
          this.info.groups,
          this.options.leaseMs,
          this.now(),
        )
      } catch (error) {
        this.options.onError('claiming a job failed', error)
        return
      }
      if (job === undefined) return
      const claimed = job
      const done = this.execute(claimed).finally(() => {
        this.running.delete(claimed.id)
        for (const listener of this.listeners) listener(claimed.id)
        this.nudge()
      })
      this.running.set(claimed.id, done)
    }
  }

  private async execute(job: Job): Promise<void> {
    const renew = setInterval(
      () => {
        this.queue.renew(job.id, this.info.id, this.options.leaseMs, this.now()).then(
          (held) => {
            if (!held) this.options.onError(`lost the lease of ${job.id}`, undefined)
          },
          (error: unknown) => this.options.onError('renewing a lease failed', error),
        )
      },
      Math.max(50, Math.floor(this.options.leaseMs / 3)),
    )
    renew.unref()
    try {
      const outcome = await this.options.run(job)
      if (this.stopping && this.released.has(job.id)) return
      const recorded = await this.queue.complete(job.id, this.info.id, outcome)
      if (!recorded)
        this.options.onError(
          `the outcome of ${job.id} came after its lease was lost; it is not recorded`,
          undefined,
        )
    } catch (error) {
      this.options.onError(`running ${job.id} failed`, error)
    } finally {
      clearInterval(renew)
    }
  }

  private readonly released = new Set<string>()

  /**
   * Stops taking jobs, waits up to `drainMs` for the running ones, gives back those still
   * running (they will run again elsewhere), and leaves the live-worker list.
   */
  async stop(drainMs: number): Promise<void> {
    this.stopping = true
    if (this.pollTimer) clearTimeout(this.pollTimer)
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer)
    await this.polling
    const all = Promise.all(this.running.values())
    const timedOut = await Promise.race([
      all.then(() => false),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(true), drainMs).unref()),
    ])
    if (timedOut) {
      for (const id of this.running.keys()) {
        this.released.add(id)
        await this.queue
          .release(id, this.info.id, this.now())
          .catch((error: unknown) => this.options.onError(`releasing ${id} failed`, error))
      }
    }
    await this.queue
      .removeWorker(this.info.id)
      .catch((error: unknown) => this.options.onError('leaving the worker list failed', error))
  }
}
