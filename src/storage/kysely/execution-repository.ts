/** Execution records over any Kysely dialect. */
import type { Kysely } from 'kysely'
import type { ExecutionRepository } from '../store.js'
import type {
  ExecutionQuery,
  ExecutionRecord,
  ExecutionStatus,
  ExecutionTrigger,
} from '../records.js'
import type { Database } from '../schema.js'

type Row = Database['executions']

/** SQLite allows 32,766 bound parameters per statement; 15 columns a row. */
const rowsPerStatement = 1000

export class KyselyExecutionRepository implements ExecutionRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insertMany(records: readonly ExecutionRecord[]): Promise<void> {
    if (records.length === 0) return
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < records.length; i += rowsPerStatement) {
        await trx
          .insertInto('executions')
          .values(records.slice(i, i + rowsPerStatement).map(toRow))
          .execute()
      }
    })
  }

  async list(query: ExecutionQuery): Promise<ExecutionRecord[]> {
    let select = this.db.selectFrom('executions').selectAll()
    if (query.flow !== undefined) select = select.where('flow', '=', query.flow)
    if (query.projectId !== undefined) select = select.where('project_id', '=', query.projectId)
    if (query.requestId !== undefined) select = select.where('request_id', '=', query.requestId)
    // Ids are UUIDv7: id order is creation order (see migration 0003).
    const rows = await select.orderBy('id', 'desc').limit(query.limit).execute()
    return rows.map(fromRow)
  }

  async get(id: string): Promise<ExecutionRecord | undefined> {
    const row = await this.db
      .selectFrom('executions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst()
    return row ? fromRow(row) : undefined
  }
}

export function toRow(r: ExecutionRecord): Row {
  return {
    id: r.id,
    request_id: r.requestId,
    project_id: r.projectId,
    flow: r.flow,
    flow_version: r.flowVersion,
    trigger: r.trigger,
    application: r.application,
    stage: r.stage,
    endpoint: r.endpoint,
    status: r.status,
    started_at: r.startedAt,
    finished_at: r.finishedAt,
    duration_ms: r.durationMs,
    error_code: r.errorCode,
    error_message: r.errorMessage,
    worker_group: r.workerGroup ?? null,
    attempts: r.attempts ?? null,
    max_attempts: r.maxAttempts ?? null,
    available_at: null,
    lease_owner: null,
    lease_expires_at: null,
    queued_at: null,
    inputs: null,
    body: null,
    context: null,
    result: r.result === undefined ? null : JSON.stringify(r.result),
    error: r.error === undefined || r.error === null ? null : JSON.stringify(r.error),
  }
}

export function fromRow(r: Row): ExecutionRecord {
  return {
    id: r.id,
    requestId: r.request_id,
    projectId: r.project_id,
    flow: r.flow,
    flowVersion: Number(r.flow_version),
    trigger: r.trigger as ExecutionTrigger,
    application: r.application,
    stage: r.stage,
    endpoint: r.endpoint,
    status: r.status as ExecutionStatus,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    durationMs: r.duration_ms === null ? null : Number(r.duration_ms),
    errorCode: r.error_code,
    errorMessage: r.error_message,
    ...(r.worker_group !== null && { workerGroup: r.worker_group }),
    ...(r.attempts !== null && { attempts: Number(r.attempts) }),
    ...(r.max_attempts !== null && { maxAttempts: Number(r.max_attempts) }),
    ...(r.result !== null && { result: JSON.parse(r.result) as unknown }),
    ...(r.error !== null && { error: JSON.parse(r.error) as Record<string, unknown> }),
  }
}
