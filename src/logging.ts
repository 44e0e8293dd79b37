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

/** One line per request (the access log). */
export interface RequestLine {
  readonly reqId: string
  readonly method: string
  /** Already redacted. */
  readonly url: string
  readonly route: string | undefined
  readonly status: number
  readonly durationMs: number
  readonly executionId: string | undefined
}

/**
 * Writes the request line straight to the logger's destination, in pino's own layout (level,
 * time, the logger's bindings, the fields, msg): pino's generic path (a child, serializers, a
 * stringifier per field) cost about 2.5 µs per request (measured), this a tenth of it. Strings
 * go through JSON.stringify, so any value is escaped as pino would.
 */
export function requestLogger(logger: Logger): (line: RequestLine) => void {
  const internals = logger as unknown as Record<symbol, unknown>
  const stream = internals[pino.symbols.streamSym] as { write(line: string): unknown }
  const bindings = internals[pino.symbols.chindingsSym] as string
  const level = logger.levels.values.info!
  const text = JSON.stringify
  return (line) => {
    if (!logger.isLevelEnabled('info')) return
    const route = line.route === undefined ? '' : `,"route":${text(line.route)}`
    const execution =
      line.executionId === undefined ? '' : `,"executionId":${text(line.executionId)}`
    stream.write(
      `{"level":${level},"time":${Date.now()}${bindings},"reqId":${text(line.reqId)},"method":${text(line.method)},"url":${text(line.url)}${route},"status":${line.status},"durationMs":${line.durationMs}${execution},"msg":"request"}\n`,
    )
  }
}
