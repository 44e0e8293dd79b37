/**
 * Applying a project: validate everything (files or an in-memory document), then replace the
 * project's configuration in the store in one transaction. Nothing is written when anything is
 * invalid. Shared by `flowgate serve` (start-up and --watch) and the admin API.
 */
import type { LoadedProject, ProjectLoad, SourceFile } from '../project/load-project.js'
import { loadProjectDirectory, loadProjectSources } from '../project/load-project.js'
import type { Diagnostic } from '../project/source-document.js'
import type { ApplyOutcome, ProjectApplication } from '../storage/records.js'
import type { Store } from '../storage/store.js'

export type ApplyResult =
  | { kind: 'applied'; outcome: ApplyOutcome; warnings: Diagnostic[]; project: ProjectApplication }
  | { kind: 'invalid'; diagnostics: Diagnostic[] }

export async function applyProjectDirectory(store: Store, directory: string): Promise<ApplyResult> {
  return applyLoad(store, await loadProjectDirectory(directory))
}

export async function applyProjectSources(
  store: Store,
  projectFile: SourceFile,
  flowFiles: readonly SourceFile[],
): Promise<ApplyResult> {
  return applyLoad(store, loadProjectSources(projectFile, flowFiles))
}

async function applyLoad(store: Store, load: ProjectLoad): Promise<ApplyResult> {
  if (load.kind === 'invalid') return load
  const project = toApplication(load.project)
  const outcome = await store.configuration.applyProject(project)
  return { kind: 'applied', outcome, warnings: load.warnings, project }
}

export function toApplication(project: LoadedProject): ProjectApplication {
  const { document } = project
  const users = document.users ?? []
  return {
    owner: document.owner,
    name: document.project,
    // The owner is a user even when not listed.
    users: users.some((u) => u.name === document.owner)
      ? users
      : [{ name: document.owner, roles: [] }, ...users],
    apiKeys: document.apiKeys ?? [],
    workerGroups: [...new Set(['default', ...(document.workerGroups ?? [])])],
    applications: document.applications ?? [],
    flows: [...project.flows.values()].map((flow) => ({
      name: flow.compiled.name,
      file: flow.file,
      source: flow.text,
      hash: flow.hash,
    })),
  }
}
