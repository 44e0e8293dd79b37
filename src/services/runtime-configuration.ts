/**
 * The configuration as the gateway runs it, built from what the store holds: flows compiled
 * (once per source: a cache keyed by hash survives reloads), users and keys indexed. Built
 * whenever the configuration changes, never per request.
 */
import type { CompiledFlow } from '../engine/definition.js'
import type { FlowRegistry } from '../engine/flow-registry.js'
import { loadFlowText } from '../project/load-flow.js'
import type { ApplicationDocument } from '../project/project-model.js'
import { settingsWarnings } from '../project/project-references.js'
import { formatDiagnostic } from '../project/source-document.js'
import type { StoredConfiguration } from '../storage/records.js'

export interface RuntimeUser {
  readonly name: string
  readonly roles: readonly string[]
}

export interface RuntimeFlow {
  readonly compiled: CompiledFlow
  readonly version: number
}

export interface RuntimeProject {
  readonly id: string
  readonly owner: string
  readonly name: string
  readonly users: ReadonlyMap<string, RuntimeUser>
  readonly workerGroups: ReadonlySet<string>
  readonly flows: ReadonlyMap<string, RuntimeFlow>
  readonly registry: FlowRegistry
}

export interface RuntimeApiKey {
  readonly name: string
  readonly sha256: string
  readonly project: RuntimeProject
  readonly user: RuntimeUser
}

export interface RuntimeApplication {
  readonly document: ApplicationDocument
  readonly project: RuntimeProject
  /** The owner as the default context user (SPEC 2: user = owner, authorities = roles). */
  readonly owner: RuntimeUser
  readonly warnings: readonly string[]
}

export interface RuntimeConfiguration {
  readonly revision: number
  readonly projects: ReadonlyMap<string, RuntimeProject>
  /** By sha256 hex of the key. */
  readonly apiKeys: ReadonlyMap<string, RuntimeApiKey>
  readonly applications: ReadonlyMap<string, RuntimeApplication>
  /** Flows whose stored source no longer compiles (an engine upgrade, say): logged, not served. */
  readonly problems: readonly string[]
}

/** Compiled flows by source hash, reused across reloads. */
export type FlowCache = Map<string, CompiledFlow | string>

export function buildRuntimeConfiguration(
  stored: StoredConfiguration,
  cache: FlowCache = new Map(),
): RuntimeConfiguration {
  const projects = new Map<string, RuntimeProject>()
  const apiKeys = new Map<string, RuntimeApiKey>()
  const applications = new Map<string, RuntimeApplication>()
  const problems: string[] = []
  const used = new Set<string>()

  for (const p of stored.projects) {
    const flows = new Map<string, RuntimeFlow>()
    for (const flow of p.flows) {
      used.add(flow.hash)
      let compiled = cache.get(flow.hash)
      if (compiled === undefined) {
        const load = loadFlowText(flow.file, flow.source)
        compiled =
          load.kind === 'loaded'
            ? load.flow.compiled
            : load.diagnostics.map(formatDiagnostic).join('; ')
        cache.set(flow.hash, compiled)
      }
      if (typeof compiled === 'string')
        problems.push(`${p.id}: flow '${flow.name}' does not compile: ${compiled}`)
      else flows.set(flow.name, { compiled, version: flow.version })
    }
    const users = new Map(
      p.users.map((u) => [u.name, { name: u.name, roles: Object.freeze([...(u.roles ?? [])]) }]),
    )
    const project: RuntimeProject = {
      id: p.id,
      owner: p.owner,
      name: p.name,
      users,
      workerGroups: new Set(['default', ...p.workerGroups]),
      flows,
      registry: new Map([...flows].map(([name, f]) => [name, f.compiled])),
    }
    projects.set(p.id, project)
    for (const key of p.apiKeys) {
      const user = users.get(key.user) ?? { name: key.user, roles: [] }
      apiKeys.set(key.sha256, { name: key.name, sha256: key.sha256, project, user })
    }
    for (const app of p.applications) {
      applications.set(app.name, {
        document: app,
        project,
        owner: users.get(app.owner) ?? { name: app.owner, roles: [] },
        warnings: applicationWarnings(app),
      })
    }
  }
  // Forget sources no project uses any more.
  for (const hash of cache.keys()) if (!used.has(hash)) cache.delete(hash)
  return { revision: stored.revision, projects, apiKeys, applications, problems }
}

/** The settings warnings of an application (SPEC 3 and 6), as the admin API shows them. */
export function applicationWarnings(app: ApplicationDocument): string[] {
  return settingsWarnings(app).map((w) => w.message)
}
