/**
 * The storage seam: small repositories, one implementation per backend (`sqlite/`, later
 * `postgres/`). Nothing outside `src/storage` knows SQL; every backend passes
 * `test/contract/store.contract.ts`.
 */
import type { JobQueue } from '../queue/queue.js'
import type {
  ApplyOutcome,
  ExecutionQuery,
  ExecutionRecord,
  ProjectApplication,
  StoredConfiguration,
} from './records.js'

export interface ConfigurationRepository {
  /**
   * Replaces one project's configuration in one transaction. A flow whose source changed gets
   * a new version; deployments follow the latest. Applying the same project twice changes
   * nothing but the revision. Throws AppError('APPLY_CONFLICT') when an application name or a
   * key hash already belongs to another project.
   */
  applyProject(project: ProjectApplication): Promise<ApplyOutcome>
  /** Everything a gateway needs to build its in-memory snapshot. */
  load(): Promise<StoredConfiguration>
  /** The revision of the last apply (0 when nothing was applied). */
  revision(): Promise<number>
}

export interface ExecutionRepository {
  /** Inserts a batch in one transaction. */
  insertMany(records: readonly ExecutionRecord[]): Promise<void>
  /** Newest first. */
  list(query: ExecutionQuery): Promise<ExecutionRecord[]>
  get(id: string): Promise<ExecutionRecord | undefined>
}

export interface Store {
  readonly configuration: ConfigurationRepository
  readonly executions: ExecutionRepository
  readonly queue: JobQueue
  /** Cheap liveness check for /readyz. */
  ping(): Promise<boolean>
  close(): Promise<void>
}
