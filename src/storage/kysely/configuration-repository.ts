/**
 * The configuration repository over any Kysely dialect: one project replaced per apply, in
 * one transaction, flows versioned by the hash of their source.
 */
import type { Kysely, Transaction } from 'kysely'
import { AppError } from '../../core/errors.js'
import type {
  ApplicationDocument,
  AuthenticationDocument,
  HttpMethod,
} from '../../project/project-model.js'
import type { ConfigurationRepository } from '../store.js'
import {
  projectId,
  type ApplyOutcome,
  type ProjectApplication,
  type StoredConfiguration,
  type StoredProject,
} from '../records.js'
import type { Database } from '../schema.js'

export class KyselyConfigurationRepository implements ConfigurationRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async applyProject(project: ProjectApplication): Promise<ApplyOutcome> {
    const id = projectId(project.owner, project.name)
    return this.db.transaction().execute(async (trx) => {
      await this.assertNoConflicts(trx, id, project)
      const now = this.clock().toISOString()
      const flows = await this.applyFlows(trx, id, project, now)
      await this.replaceSettings(trx, id, project, now)
      const revision =
        Number(
          (
            await trx
              .selectFrom('meta')
              .select('value')
              .where('key', '=', 'revision')
              .executeTakeFirst()
          )?.value ?? 0,
        ) + 1
      await trx
        .updateTable('meta')
        .set({ value: String(revision) })
        .where('key', '=', 'revision')
        .execute()
      return { revision, flows }
    })
  }

  private async assertNoConflicts(
    trx: Transaction<Database>,
    id: string,
    project: ProjectApplication,
  ): Promise<void> {
    const names = project.applications.map((a) => a.name)
    if (names.length > 0) {
      const taken = await trx
        .selectFrom('applications')
        .select(['name', 'project_id'])
        .where('name', 'in', names)
        .where('project_id', '!=', id)
        .execute()
      if (taken.length > 0) {
        throw new AppError(
          'APPLY_CONFLICT',
          { applications: taken.map((t) => t.name) },
          {
            message: `Application name already used by another project: ${taken.map((t) => `${t.name} (${t.project_id})`).join(', ')}`,
          },
        )
      }
    }
    const hashes = project.apiKeys.map((k) => k.sha256)
    if (hashes.length > 0) {
      const taken = await trx
        .selectFrom('api_keys')
        .select(['name', 'project_id'])
        .where('sha256', 'in', hashes)
        .where('project_id', '!=', id)
        .execute()
      if (taken.length > 0) {
        throw new AppError(
          'APPLY_CONFLICT',
          { apiKeys: taken.map((t) => t.name) },
          {
            message: `An API key of this project is already registered by another project (${taken.map((t) => t.project_id).join(', ')})`,
          },
        )
      }
    }
  }

  private async applyFlows(
    trx: Transaction<Database>,
    id: string,
    project: ProjectApplication,
    now: string,
  ) {
    const existing = new Map(
      (
        await trx
          .selectFrom('flows')
          .select(['name', 'latest_version'])
          .where('project_id', '=', id)
          .execute()
      ).map((f) => [f.name, f.latest_version]),
    )
    const latestHashes = new Map(
      (
        await trx
          .selectFrom('flow_versions as v')
          .innerJoin('flows as f', (j) =>
            j
              .onRef('f.project_id', '=', 'v.project_id')
              .onRef('f.name', '=', 'v.name')
              .onRef('f.latest_version', '=', 'v.version'),
          )
          .select(['v.name', 'v.hash'])
          .where('v.project_id', '=', id)
          .execute()
      ).map((r) => [r.name, r.hash]),
    )
    const outcome: { name: string; version: number; changed: boolean }[] = []
    for (const flow of project.flows) {
      const latest = existing.get(flow.name)
      if (latest !== undefined && latestHashes.get(flow.name) === flow.hash) {
        await trx
          .updateTable('flows')
          .set({ file: flow.file })
          .where('project_id', '=', id)
          .where('name', '=', flow.name)
          .execute()
        outcome.push({ name: flow.name, version: latest, changed: false })
        continue
      }
      const maxVersion = await trx
        .selectFrom('flow_versions')
        .select((eb) => eb.fn.max('version').as('max'))
        .where('project_id', '=', id)
        .where('name', '=', flow.name)
        .executeTakeFirst()
      const version = Number(maxVersion?.max ?? 0) + 1
      await trx
        .insertInto('flow_versions')
        .values({
          project_id: id,
          name: flow.name,
          version,
          hash: flow.hash,
          source: flow.source,
          created_at: now,
        })
        .execute()
      if (latest === undefined) {
        await trx
          .insertInto('flows')
          .values({ project_id: id, name: flow.name, latest_version: version, file: flow.file })
          .execute()
      } else {
        await trx
          .updateTable('flows')
          .set({ latest_version: version, file: flow.file })
          .where('project_id', '=', id)
          .where('name', '=', flow.name)
          .execute()
      }
      outcome.push({ name: flow.name, version, changed: true })
    }
    // Flows removed from the project stop being deployable; their versions stay for history.
    const kept = project.flows.map((f) => f.name)
    let removal = trx.deleteFrom('flows').where('project_id', '=', id)
    if (kept.length > 0) removal = removal.where('name', 'not in', kept)
    await removal.execute()
    return outcome
  }

  private async replaceSettings(
    trx: Transaction<Database>,
    id: string,
    project: ProjectApplication,
    now: string,
  ) {
    const oldApps = (
      await trx.selectFrom('applications').select('name').where('project_id', '=', id).execute()
    ).map((a) => a.name)
    if (oldApps.length > 0) {
      for (const table of ['stages', 'endpoints', 'deployments'] as const) {
        await trx.deleteFrom(table).where('application', 'in', oldApps).execute()
      }
    }
    for (const table of ['applications', 'users', 'api_keys', 'worker_groups'] as const) {
      await trx.deleteFrom(table).where('project_id', '=', id).execute()
    }
    await trx.deleteFrom('projects').where('id', '=', id).execute()
    await trx
      .insertInto('projects')
      .values({ id, owner: project.owner, name: project.name, applied_at: now })
      .execute()

    const rows = <T>(items: readonly T[], map: (item: T, position: number) => object) =>
      items.map(map)
    const insert = async (table: keyof Database, values: object[]) => {
      if (values.length > 0) await trx.insertInto(table).values(values).execute()
    }
    await insert(
      'users',
      rows(project.users, (u, position) => ({
        project_id: id,
        name: u.name,
        roles: JSON.stringify(u.roles ?? []),
        position,
      })),
    )
    await insert(
      'api_keys',
      rows(project.apiKeys, (k, position) => ({
        project_id: id,
        name: k.name,
        user_name: k.user,
        sha256: k.sha256,
        position,
      })),
    )
    await insert(
      'worker_groups',
      rows(project.workerGroups, (name, position) => ({ project_id: id, name, position })),
    )
    await insert(
      'applications',
      rows(project.applications, (a, position) => ({
        name: a.name,
        project_id: id,
        owner: a.owner,
        authentication: JSON.stringify(a.authentication ?? []),
        position,
      })),
    )
    for (const app of project.applications) {
      await insert(
        'stages',
        rows(app.stages, (name, position) => ({ application: app.name, name, position })),
      )
      await insert(
        'endpoints',
        rows(app.endpoints ?? [], (e, position) => ({
          application: app.name,
          name: e.name,
          method: e.method,
          path: e.path,
          position,
        })),
      )
      await insert(
        'deployments',
        rows(app.deployments ?? [], (d, position) => ({
          application: app.name,
          stage: d.stage,
          endpoint: d.endpoint,
          flow: d.flow,
          error_status_code: d.errorStatusCode ?? null,
          response: d.response === undefined ? null : JSON.stringify(d.response),
          position,
        })),
      )
    }
  }

  async load(): Promise<StoredConfiguration> {
    const db = this.db
    const [revision, projects, users, keys, groups, apps, stages, endpoints, deployments, flows] =
      await Promise.all([
        this.revision(),
        db.selectFrom('projects').selectAll().orderBy('id').execute(),
        db.selectFrom('users').selectAll().orderBy('position').execute(),
        db.selectFrom('api_keys').selectAll().orderBy('position').execute(),
        db.selectFrom('worker_groups').selectAll().orderBy('position').execute(),
        db.selectFrom('applications').selectAll().orderBy('position').execute(),
        db.selectFrom('stages').selectAll().orderBy('position').execute(),
        db.selectFrom('endpoints').selectAll().orderBy('position').execute(),
        db.selectFrom('deployments').selectAll().orderBy('position').execute(),
        db
          .selectFrom('flows as f')
          .innerJoin('flow_versions as v', (j) =>
            j
              .onRef('f.project_id', '=', 'v.project_id')
              .onRef('f.name', '=', 'v.name')
              .onRef('f.latest_version', '=', 'v.version'),
          )
          .select(['f.project_id', 'f.name', 'f.file', 'v.version', 'v.hash', 'v.source'])
          .orderBy('f.name')
          .execute(),
      ])
    const byProject = <T extends { project_id: string }>(items: T[], id: string) =>
      items.filter((i) => i.project_id === id)
    const byApp = <T extends { application: string }>(items: T[], app: string) =>
      items.filter((i) => i.application === app)
    return {
      revision,
      projects: projects.map((p): StoredProject => ({
        id: p.id,
        owner: p.owner,
        name: p.name,
        appliedAt: p.applied_at,
        users: byProject(users, p.id).map((u) => ({
          name: u.name,
          roles: JSON.parse(u.roles) as string[],
        })),
        apiKeys: byProject(keys, p.id).map((k) => ({
          name: k.name,
          user: k.user_name,
          sha256: k.sha256,
        })),
        workerGroups: byProject(groups, p.id).map((g) => g.name),
        applications: byProject(apps, p.id).map((a): ApplicationDocument => ({
          name: a.name,
          owner: a.owner,
          stages: byApp(stages, a.name).map((s) => s.name),
          endpoints: byApp(endpoints, a.name).map((e) => ({
            name: e.name,
            method: e.method as HttpMethod,
            path: e.path,
          })),
          deployments: byApp(deployments, a.name).map((d) => ({
            stage: d.stage,
            endpoint: d.endpoint,
            flow: d.flow,
            ...(d.error_status_code !== null && { errorStatusCode: d.error_status_code }),
            ...(d.response !== null && { response: JSON.parse(d.response) as object }),
          })),
          authentication: JSON.parse(a.authentication) as AuthenticationDocument[],
        })),
        flows: byProject(flows, p.id).map((f) => ({
          name: f.name,
          file: f.file,
          source: f.source,
          hash: f.hash,
          version: f.version,
        })),
      })),
    }
  }

  async revision(): Promise<number> {
    const row = await this.db
      .selectFrom('meta')
      .select('value')
      .where('key', '=', 'revision')
      .executeTakeFirst()
    return Number(row?.value ?? 0)
  }
}
