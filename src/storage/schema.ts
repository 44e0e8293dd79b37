/**
 * Table shapes shared by every SQL backend (Kysely's `Database` type). JSON columns hold text;
 * timestamps are ISO-8601 text so that SQLite and PostgreSQL sort them the same way.
 */
export interface Database {
  meta: { key: string; value: string }
  projects: { id: string; owner: string; name: string; applied_at: string }
  users: { project_id: string; name: string; roles: string; position: number }
  api_keys: {
    project_id: string
    name: string
    user_name: string
    sha256: string
    position: number
  }
  worker_groups: { project_id: string; name: string; position: number }
  applications: {
    name: string
    project_id: string
    owner: string
    authentication: string
    position: number
  }
  stages: { application: string; name: string; position: number }
  endpoints: { application: string; name: string; method: string; path: string; position: number }
  deployments: {
    application: string
    stage: string
    endpoint: string
    flow: string
    error_status_code: number | null
    response: string | null
    position: number
  }
  flows: { project_id: string; name: string; latest_version: number; file: string }
  flow_versions: {
    project_id: string
    name: string
    version: number
    hash: string
    source: string
    created_at: string
  }
  executions: {
    id: string
    request_id: string
    project_id: string
    flow: string
    flow_version: number
    trigger: string
    application: string | null
    stage: string | null
    endpoint: string | null
    status: string
    started_at: string
    finished_at: string | null
    duration_ms: number | null
    error_code: string | null
    error_message: string | null
    worker_group: string | null
    attempts: number | null
    max_attempts: number | null
    available_at: string | null
    lease_owner: string | null
    lease_expires_at: string | null
    queued_at: string | null
    inputs: string | null
    body: string | null
    context: string | null
    result: string | null
    error: string | null
  }
  workers: {
    id: string
    groups: string
    concurrency: number
    host: string
    pid: number
    started_at: string
    heartbeat_at: string
  }
}
