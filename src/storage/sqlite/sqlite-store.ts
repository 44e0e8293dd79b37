/**
 * The embedded store: SQLite (better-sqlite3, WAL) in the data directory, through Kysely.
 * One file, `flowgate.db`; migrations run when the store opens.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely'
import { KyselyConfigurationRepository } from '../kysely/configuration-repository.js'
import { KyselyQueue } from '../kysely/kysely-queue.js'
import { migrationProvider } from '../migrations/index.js'
import { SqliteExecutionRepository } from './sqlite-execution-repository.js'
import type { Database } from '../schema.js'
import type { Store } from '../store.js'

export class SqliteStore implements Store {
  readonly configuration: KyselyConfigurationRepository
  readonly executions: SqliteExecutionRepository
  readonly queue: KyselyQueue

  private constructor(
    private readonly db: Kysely<Database>,
    raw: SQLite.Database,
    file: string,
  ) {
    this.configuration = new KyselyConfigurationRepository(db)
    this.executions = new SqliteExecutionRepository(db, raw, file)
    this.queue = new KyselyQueue(db)
  }

  /** Opens (creating when needed) `<dataDirectory>/flowgate.db`; `:memory:` for tests. */
  static async open(dataDirectory: string): Promise<SqliteStore> {
    let file = ':memory:'
    if (dataDirectory !== ':memory:') {
      mkdirSync(dataDirectory, { recursive: true })
      file = join(dataDirectory, 'flowgate.db')
    }
    const database = new SQLite(file)
    database.pragma('journal_mode = WAL')
    database.pragma('synchronous = NORMAL')
    database.pragma('busy_timeout = 5000')
    database.pragma('foreign_keys = ON')
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) })
    const { error } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest()
    if (error) {
      await db.destroy()
      throw error instanceof Error ? error : new Error(`migration failed: ${JSON.stringify(error)}`)
    }
    return new SqliteStore(db, database, file)
  }

  async ping(): Promise<boolean> {
    try {
      await sql`select 1`.execute(this.db)
      return true
    } catch {
      return false
    }
  }

  async close(): Promise<void> {
    await this.executions.close()
    await this.db.destroy()
  }
}
