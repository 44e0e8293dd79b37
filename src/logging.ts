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
    pino.destination({ dest: 1, sync: options.sync ?? false, minLength: 4096 })
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
