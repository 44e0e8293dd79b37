/**
 * Records executions off the request path: records are buffered and written in batches (one
 * transaction each) on a timer or when the buffer fills. A failed write keeps the batch for
 * the next attempt; `close()` writes everything left, so a clean shutdown loses nothing.
 */
import type { ExecutionRecord } from '../storage/records.js'
import type { ExecutionRepository } from '../storage/store.js'

export interface RecorderOptions {
  readonly flushIntervalMs: number
  readonly maxBatch: number
  readonly onError: (error: unknown, pending: number) => void
}

export class ExecutionRecorder {
  private buffer: ExecutionRecord[] = []
  private timer: NodeJS.Timeout | undefined
  private flushing: Promise<void> | undefined
  private closed = false

  constructor(
    private readonly executions: ExecutionRepository,
    private readonly options: RecorderOptions = {
      flushIntervalMs: 100,
      maxBatch: 1000,
      onError: () => {},
    },
  ) {}

  record(execution: ExecutionRecord): void {
    this.buffer.push(execution)
    if (this.buffer.length >= this.options.maxBatch) void this.flush()
    else if (this.timer === undefined && !this.closed) {
      this.timer = setTimeout(() => {
        this.timer = undefined
        void this.flush()
      }, this.options.flushIntervalMs)
      this.timer.unref()
    }
  }

  get pending(): number {
    return this.buffer.length
  }

  /** Writes what is buffered; concurrent calls share one write. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing
    if (this.buffer.length === 0) return
    const batch = this.buffer
    this.buffer = []
    this.flushing = this.executions.insertMany(batch).then(
      () => undefined,
      (error: unknown) => {
        // Keep the batch, ahead of what arrived meanwhile, for the next flush.
        this.buffer = batch.concat(this.buffer)
        this.options.onError(error, this.buffer.length)
        if (!this.closed && this.timer === undefined) {
          this.timer = setTimeout(() => {
            this.timer = undefined
            void this.flush()
          }, this.options.flushIntervalMs * 10)
          this.timer.unref()
        }
      },
    )
    try {
      await this.flushing
    } finally {
      this.flushing = undefined
    }
  }

  async close(): Promise<void> {
    this.closed = true
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.timer = undefined
    await this.flush()
    if (this.buffer.length > 0) await this.flush()
  }
}
