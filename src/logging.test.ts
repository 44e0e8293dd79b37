import { describe, expect, it } from 'vitest'
import { BatchedDestination } from './logging.js'

function fakeWriter() {
  const chunks: string[] = []
  const calls: string[] = []
  return {
    chunks,
    calls,
    write: (chunk: string) => chunks.push(chunk),
    flush: (callback?: (error?: Error) => void) => {
      calls.push('flush')
      callback?.()
    },
    flushSync: () => calls.push('flushSync'),
  }
}

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('BatchedDestination', () => {
  it('hands the lines to the writer as one chunk, in order, soon after the first', async () => {
    const writer = fakeWriter()
    const destination = new BatchedDestination(writer, 16 * 1024, 5, false)
    destination.write('a\n')
    destination.write('b\n')
    await later(0)
    destination.write('c\n')
    expect(writer.chunks).toEqual([])
    await later(20)
    expect(writer.chunks).toEqual(['a\nb\nc\n'])
    destination.write('d\n')
    await later(20)
    expect(writer.chunks).toEqual(['a\nb\nc\n', 'd\n'])
  })

  it('hands over at once when a chunk is full', () => {
    const writer = fakeWriter()
    const destination = new BatchedDestination(writer, 10, 5, false)
    destination.write('12345\n')
    expect(writer.chunks).toEqual([])
    destination.write('67890\n')
    expect(writer.chunks).toEqual(['12345\n67890\n'])
  })

  it('writes what is waiting on flush and flushSync', () => {
    const writer = fakeWriter()
    const destination = new BatchedDestination(writer, 16 * 1024, 5, false)
    destination.write('x\n')
    destination.flushSync()
    expect(writer.chunks).toEqual(['x\n'])
    destination.write('y\n')
    let flushed = false
    destination.flush(() => (flushed = true))
    expect(writer.chunks).toEqual(['x\n', 'y\n'])
    expect(writer.calls).toEqual(['flushSync', 'flush'])
    expect(flushed).toBe(true)
  })

  it('loses nothing when the process exits with lines waiting', async () => {
    const { spawnSync } = await import('node:child_process')
    const script = `
      import { BatchedDestination } from ${JSON.stringify(new URL('../dist/logging.js', import.meta.url).href)}
      import pino from 'pino'
      const destination = new BatchedDestination(pino.destination({ dest: 1, sync: false }))
      for (let i = 0; i < 1000; i++) destination.write('line ' + i + '\\n')
      process.exit(0)
    `
    // The build (npm test makes it first), as the product runs; pino resolves from the repo.
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      cwd: new URL('..', import.meta.url).pathname,
    })
    const lines = result.stdout.trim().split('\n')
    expect(lines).toHaveLength(1000)
    expect(lines.at(-1)).toBe('line 999')
  })
})

describe('requestLogger', () => {
  it('writes the line pino would write for the same fields, escaped, at info and above only', async () => {
    const { createLogger, requestLogger } = await import('./logging.js')
    const { Writable } = await import('node:stream')
    const lines: string[] = []
    const destination = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString())
        callback()
      },
    })
    const logger = createLogger({ level: 'info', destination })
    const fields = {
      reqId: 'r-1',
      method: 'POST',
      url: '/shop/prod/a?q="x"\n',
      route: 'shop/prod/a',
      status: 201,
      durationMs: 0.123,
      executionId: 'e-1',
    }
    requestLogger(logger)(fields)
    logger.child({}, { redact: { paths: [], censor: '' } }).info(fields, 'request')
    await new Promise((resolve) => setImmediate(resolve))
    expect(lines).toHaveLength(2)
    const ours = JSON.parse(lines[0]!) as Record<string, unknown>
    const pinos = JSON.parse(lines[1]!) as Record<string, unknown>
    expect(typeof ours.time).toBe('number')
    expect({ ...ours, time: 0 }).toEqual({ ...pinos, time: 0 })
    expect(Object.keys(ours)).toEqual(Object.keys(pinos))

    requestLogger(logger)({ ...fields, route: undefined, executionId: undefined })
    await new Promise((resolve) => setImmediate(resolve))
    expect(JSON.parse(lines[2]!)).not.toHaveProperty('route')
    expect(JSON.parse(lines[2]!)).not.toHaveProperty('executionId')

    logger.level = 'warn'
    requestLogger(logger)(fields)
    await new Promise((resolve) => setImmediate(resolve))
    expect(lines).toHaveLength(3)
  })
})
