/**
 * Execution records on SQLite: reads through Kysely like every backend, but batches are
 * written with one prepared statement run row by row in a transaction. That is what SQLite is
 * fast at (a few microseconds a row), where a multi-row INSERT built per batch costs its
 * compilation every time, on the gateway's event loop.
 */
import type { Database as SQLiteDatabase, Statement } from 'better-sqlite3'
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
  'worker_group',
  'attempts',
  'max_attempts',
  'result',
  'error',
] as const

export class SqliteExecutionRepository extends KyselyExecutionRepository {
  private readonly insert: Statement
  private readonly insertAll: (records: readonly ExecutionRecord[]) => void

  constructor(db: Kysely<Database>, raw: SQLiteDatabase) {
    super(db)
    this.insert = raw.prepare(
      `insert into executions (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`,
    )
    this.insertAll = raw.transaction((records: readonly ExecutionRecord[]) => {
      for (const record of records) {
        const row = toRow(record)
        this.insert.run(columns.map((column) => row[column]))
      }
    })
  }

  override insertMany(records: readonly ExecutionRecord[]): Promise<void> {
    if (records.length === 0) return Promise.resolve()
    try {
      this.insertAll(records)
      return Promise.resolve()
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)))
    }
  }
}
