/**
 * Schema migrations, in order, written with Kysely's schema builder so that every SQL backend
 * runs the same ones. Never edit a released migration: add the next one.
 */
import { sql, type Kysely, type Migration, type MigrationProvider } from 'kysely'

const initial: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('meta')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute()
    await db.schema
      .createTable('projects')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('owner', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('applied_at', 'text', (c) => c.notNull())
      .execute()
    await db.schema
      .createTable('users')
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('roles', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('users_pk', ['project_id', 'name'])
      .execute()
    await db.schema
      .createTable('api_keys')
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('user_name', 'text', (c) => c.notNull())
      .addColumn('sha256', 'text', (c) => c.notNull().unique())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('api_keys_pk', ['project_id', 'name'])
      .execute()
    await db.schema
      .createTable('worker_groups')
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('worker_groups_pk', ['project_id', 'name'])
      .execute()
    await db.schema
      .createTable('applications')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('owner', 'text', (c) => c.notNull())
      .addColumn('authentication', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .execute()
    await db.schema
      .createTable('stages')
      .addColumn('application', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('stages_pk', ['application', 'name'])
      .execute()
    await db.schema
      .createTable('endpoints')
      .addColumn('application', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('method', 'text', (c) => c.notNull())
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('endpoints_pk', ['application', 'name'])
      .execute()
    await db.schema
      .createTable('deployments')
      .addColumn('application', 'text', (c) => c.notNull())
      .addColumn('stage', 'text', (c) => c.notNull())
      .addColumn('endpoint', 'text', (c) => c.notNull())
      .addColumn('flow', 'text', (c) => c.notNull())
      .addColumn('error_status_code', 'integer')
      .addColumn('response', 'text')
      .addColumn('position', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('deployments_pk', ['application', 'stage', 'endpoint'])
      .execute()
    await db.schema
      .createTable('flows')
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('latest_version', 'integer', (c) => c.notNull())
      .addColumn('file', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('flows_pk', ['project_id', 'name'])
      .execute()
    await db.schema
      .createTable('flow_versions')
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('hash', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('flow_versions_pk', ['project_id', 'name', 'version'])
      .execute()
    await db.schema
      .createTable('executions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('request_id', 'text', (c) => c.notNull())
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('flow', 'text', (c) => c.notNull())
      .addColumn('flow_version', 'integer', (c) => c.notNull())
      .addColumn('trigger', 'text', (c) => c.notNull())
      .addColumn('application', 'text')
      .addColumn('stage', 'text')
      .addColumn('endpoint', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('started_at', 'text', (c) => c.notNull())
      .addColumn('finished_at', 'text')
      .addColumn('duration_ms', 'real')
      .addColumn('error_code', 'text')
      .addColumn('error_message', 'text')
      .execute()
    await db.schema
      .createIndex('executions_started')
      .on('executions')
      .columns(['started_at', 'id'])
      .execute()
    await db.schema
      .createIndex('executions_flow_started')
      .on('executions')
      .columns(['flow', 'started_at', 'id'])
      .execute()
    await db.schema
      .createIndex('executions_request')
      .on('executions')
      .column('request_id')
      .execute()
    await sql`insert into meta (key, value) values ('revision', '0')`.execute(db)
  },
}

/** Queued runs (the trigger endpoint) are executions too: leases, attempts, results. */
const queue: Migration = {
  async up(db: Kysely<unknown>) {
    const columns: [string, 'text' | 'integer'][] = [
      ['worker_group', 'text'],
      ['attempts', 'integer'],
      ['max_attempts', 'integer'],
      ['available_at', 'text'],
      ['lease_owner', 'text'],
      ['lease_expires_at', 'text'],
      ['queued_at', 'text'],
      ['inputs', 'text'],
      ['body', 'text'],
      ['context', 'text'],
      ['result', 'text'],
      ['error', 'text'],
    ]
    for (const [name, type] of columns) {
      await db.schema.alterTable('executions').addColumn(name, type).execute()
    }
    // Partial indexes: only waiting and running jobs are in them, so recording the many
    // finished executions of business endpoints does not pay for the queue's indexes.
    await db.schema
      .createIndex('executions_queue')
      .on('executions')
      .columns(['worker_group', 'available_at'])
      .where(sql.ref('status'), '=', 'queued')
      .execute()
    await db.schema
      .createIndex('executions_lease')
      .on('executions')
      .column('lease_expires_at')
      .where(sql.ref('status'), '=', 'running')
      .execute()
    await db.schema
      .createTable('workers')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('groups', 'text', (c) => c.notNull())
      .addColumn('concurrency', 'integer', (c) => c.notNull())
      .addColumn('host', 'text', (c) => c.notNull())
      .addColumn('pid', 'integer', (c) => c.notNull())
      .addColumn('started_at', 'text', (c) => c.notNull())
      .addColumn('heartbeat_at', 'text', (c) => c.notNull())
      .execute()
  },
}

/**
 * Leaner execution indexes: ids are UUIDv7 (time-ordered, made when the execution starts or is
 * queued), so newest-first is id order and the primary key serves it; the flow filter needs
 * (flow, id) only. One index fewer to update per recorded execution, on the hot path.
 */
const leanExecutionIndexes: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.dropIndex('executions_started').execute()
    await db.schema.dropIndex('executions_flow_started').execute()
    await db.schema
      .createIndex('executions_flow')
      .on('executions')
      .columns(['flow', 'id'])
      .execute()
  },
}

export const migrations: Record<string, Migration> = {
  '0001_initial': initial,
  '0002_queue': queue,
  '0003_lean_execution_indexes': leanExecutionIndexes,
}

export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations),
}
