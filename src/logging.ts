/**
 * The logger: pino JSON lines, written asynchronously (never a synchronous write on the hot
 * path). Credentials never appear: `authorization`, `x-api-key` and `api_key` are redacted
 * wherever they sit, and URLs are logged with the `api_key` value replaced.
 */
import pino, { type DestinationStream, type Logger } from 'pino'
import { redactUrl } from './gateway/request/query-string.js'

export const redactedPaths = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'headers.authorization',
  'headers["x-api-key"]',
  '*.api_key',
  'api_key',
  '*.apiKey',
  'query.api_key',
]

export function createLogger(options: {
  level: string
  destination?: DestinationStream
  sync?: boolean
}): Logger {
  const destination =
    options.destination ??
    (options.sync === true
      ? pino.destination({ dest: 1, sync: true })
      : new BatchedDestination(pino.destination({ dest: 1, sync: false })))
  return pino(
    {
      level: options.level,
      base: { service: 'flowgate' },
      redact: { paths: redactedPaths, censor: '[REDACTED]' },
      serializers: {
        req: (req: { method?: string; url?: string }) => ({
          method: req.method,
          url: redactUrl(req.url ?? ''),
        }),
        err: pino.stdSerializers.err,
      },
    },
    destination,
  )
}

/** What pino.destination returns, as far as the batching below uses it. */
interface FileWriter {
  write(chunk: string): unknown
  flush(callback?: (error?: Error) => void): void
  flushSync(): void
}

/**
 * Gathers log lines and hands them to the file writer in chunks: when 16 KiB are waiting, or
 * 20 ms after the first line. sonic-boom measures its whole pending buffer
 * (Buffer.byteLength) on every write, and each write it starts goes through libuv's thread
 * pool: line by line that cost several µs per request line (measured), chunk by chunk next to
 * nothing. Lines keep their order, and `flushSync` (also run at exit) writes what is left.
 */
export class BatchedDestination implements DestinationStream {
  private lines: string[] = []
  private size = 0
  private timer: NodeJS.Timeout | undefined

  constructor(
    private readonly target: FileWriter,
    private readonly chunkSize = 16 * 1024,
    private readonly delayMs = 20,
    exitHook = true,
  ) {
    if (exitHook) process.once('exit', () => this.flushSync())
  }

  write(line: string): void {
    this.lines.push(line)
    this.size += line.length
    if (this.size >= this.chunkSize) this.handOver()
    else if (this.timer === undefined) {
      // Unref'd: waiting lines never keep the process up; the exit hook writes them.
      this.timer = setTimeout(this.handOverLater, this.delayMs)
      this.timer.unref()
    }
  }

  /** pino's `logger.flush(cb)`: everything gathered so far reaches the file, then `cb`. */
  flush(callback?: (error?: Error) => void): void {
    this.handOver()
    this.target.flush(callback)
  }

  flushSync(): void {
    this.handOver()
    try {
      this.target.flushSync()
    } catch {
      // At exit, a writer still busy with an earlier chunk refuses; that chunk is on its way.
    }
  }

  private readonly handOverLater = (): void => {
    this.timer = undefined
    this.handOver()
  }

  private handOver(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer)
      this.timer = undefined
    }
    if (this.lines.length === 0) return
    const chunk = this.lines.length === 1 ? this.lines[0]! : this.lines.join('')
    this.lines = []
    this.size = 0
    this.target.write(chunk)
  }
}
