/**
 * Execution records on SQLite: reads through Kysely like every backend; batches are written by
 * one prepared statement run row by row in a transaction, which is what SQLite is fast at.
 *
 * For a database file, the writing happens on a worker thread with a connection of its own:
 * better-sqlite3 is synchronous, and a batch (or the WAL checkpoint a commit sometimes runs)
 * would otherwise stop the gateway's event loop for milliseconds, which shows in the latency
 * of every request in flight. The main thread only hands the rows over. An in-memory database
 * cannot be shared with a thread, so it is written in place.
 */
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import type { Database as SQLiteDatabase } from 'better-sqlite3'
import type { Kysely } from 'kysely'
import { KyselyExecutionRepository, toRow } from '../kysely/execution-repository.js'
import type { ExecutionRecord } from '../records.js'
import type { Database } from '../schema.js'

const columns = [
  'id',
  'request_id',
  'project_id',
  'flow',
  'flow_version',
  'trigger',
  'application',
  'stage',
  'endpoint',
  'status',
  'started_at',
  'finished_at',
  'duration_ms',
  'error_code',
  'error_message',
  // The queue's columns: null for executions of business endpoints, which then bind only the
  // columns above (fewer bound values on every recorded request).
  'worker_group',
  'attempts',
  'max_attempts',
  'result',
  'error',
] as const

const baseColumns = columns.slice(0, columns.indexOf('worker_group'))
const queueColumns = columns.slice(baseColumns.length)
const insertSql = (names: readonly string[]) =>
  `insert into executions (${names.join(', ')}) values (${names.map(() => '?').join(', ')})`
const statements = { base: insertSql(baseColumns), full: insertSql(columns) }

/** The writer thread, as source: it must run from sources (tests) and from the build alike. */
const writerSource = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.driver)
const db = new Database(workerData.file)
db.pragma('journal_mode = WAL')
db.pragma('synchronous = NORMAL')
db.pragma('busy_timeout = 5000')
const base = db.prepare(workerData.sql.base)
const full = db.prepare(workerData.sql.full)
const insertAll = db.transaction((rows) => {
  for (const row of rows) (row.length === workerData.fullLength ? full : base).run(row)
})
parentPort.on('message', (message) => {
  if (message.close) { db.close(); parentPort.postMessage({ closed: true }); return }
  try {
    insertAll(JSON.parse(message.rows))
    parentPort.postMessage({ id: message.id })
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: String((error && error.message) || error) })
  }
})
`

type Row = ReturnType<typeof toRow>

export class SqliteExecutionRepository extends KyselyExecutionRepository {
  private readonly writeInPlace: ((rows: unknown[][]) => void) | undefined
  private readonly writer: Worker | undefined
  private readonly pending = new Map<
    number,
    { resolve: () => void; reject: (error: Error) => void }
  >()
  private nextId = 0

  constructor(db: Kysely<Database>, raw: SQLiteDatabase, file: string) {
    super(db)
    if (file === ':memory:') {
      const base = raw.prepare(statements.base)
      const full = raw.prepare(statements.full)
      this.writeInPlace = raw.transaction((rows: unknown[][]) => {
        for (const row of rows) (row.length === columns.length ? full : base).run(row)
      })
      return
    }
    this.writer = new Worker(writerSource, {
      eval: true,
      workerData: {
        file,
        sql: statements,
        fullLength: columns.length,
        driver: createRequire(import.meta.url).resolve('better-sqlite3'),
      },
    })
    this.writer.unref()
    this.writer.on('message', (message: { id?: number; error?: string }) => {
      if (message.id === undefined) return
      const waiting = this.pending.get(message.id)
      this.pending.delete(message.id)
      if (this.pending.size === 0) this.writer?.unref()
      if (message.error === undefined) waiting?.resolve()
      else waiting?.reject(new Error(message.error))
    })
    this.writer.on('error', (error) => {
      for (const waiting of this.pending.values()) waiting.reject(error)
      this.pending.clear()
    })
  }

  override insertMany(records: readonly ExecutionRecord[]): Promise<void> {
    if (records.length === 0) return Promise.resolve()
    const rows = records.map((record) => {
      const row: Row = toRow(record)
      const queued = queueColumns.some(
        (column) => row[column] !== null && row[column] !== undefined,
      )
      return (queued ? columns : baseColumns).map((column) => row[column])
    })
    if (this.writeInPlace) {
      try {
        this.writeInPlace(rows)
        return Promise.resolve()
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)))
      }
    }
    const id = this.nextId++
    return new Promise<void>((resolve, reject) => {
      // While a batch is on its way the thread keeps the process alive: an exit then would
      // lose it. Idle, it does not hold the process open.
      if (this.pending.size === 0) this.writer!.ref()
      this.pending.set(id, { resolve, reject })
      // One string crosses to the thread: cloning thousands of small arrays costs more.
      this.writer!.postMessage({ id, rows: JSON.stringify(rows) })
    })
  }

  /** Waits for the writes handed over, then stops the writer thread. */
  async close(): Promise<void> {
    const writer = this.writer
    if (writer === undefined) return
    writer.ref() // until it answers: nothing else may be keeping the process alive by now
    await new Promise<void>((resolve) => {
      writer.on('message', (message: { closed?: boolean }) => {
        if (message.closed) resolve()
      })
      writer.postMessage({ close: true })
    })
    await writer.terminate()
  }
}
