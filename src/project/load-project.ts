/**
 * Loads a project: `flowgate.yaml` plus `flows/*.flow.yaml`, from a directory or from files
 * held in memory (the admin API's apply). Everything is checked (syntax, schemas, flow
 * compilation, call graph, references) and every problem is reported at once; a project with
 * any error is not loaded at all, so nothing half-valid is ever applied.
 */
import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { problem } from '../core/problems.js'
import type { CompileOptions } from '../engine/compile-flow.js'
import type { CompiledFlow } from '../engine/definition.js'
import { checkCallGraph, type FlowRegistry } from '../engine/flow-registry.js'
import { flowFilePattern, loadFlowText, type LoadedFlow } from './load-flow.js'
import { checkProjectReferences } from './project-references.js'
import type { ProjectDocument } from './project-model.js'
import { validateAgainstSchema } from './schema-validation.js'
import { maxSourceBytes, parseSource, type Diagnostic } from './source-document.js'

export interface LoadedProject {
  readonly document: ProjectDocument
  readonly flows: ReadonlyMap<string, LoadedFlow>
  readonly registry: FlowRegistry
}

export type ProjectLoad =
  | { kind: 'loaded'; project: LoadedProject; warnings: Diagnostic[] }
  | { kind: 'invalid'; diagnostics: Diagnostic[] }

export interface SourceFile {
  /** Path as shown in diagnostics (`flows/greet.flow.yaml`). */
  readonly file: string
  readonly text: string
}

export const projectFileNames = ['flowgate.yaml', 'flowgate.yml', 'flowgate.json']

export function loadProjectSources(
  projectFile: SourceFile,
  flowFiles: readonly SourceFile[],
  options: CompileOptions = {},
): ProjectLoad {
  const diagnostics: Diagnostic[] = []
  const flows = new Map<string, LoadedFlow>()
  for (const file of flowFiles) {
    const load = loadFlowText(file.file, file.text, options)
    if (load.kind === 'invalid') {
      diagnostics.push(...load.diagnostics)
      continue
    }
    diagnostics.push(...load.warnings)
    const { flow } = load
    const name = flow.compiled.name
    const existing = flows.get(name)
    if (existing) {
      diagnostics.push(
        flow.source.diagnostic(
          problem(['name'], `flow '${name}' is also defined in ${existing.file}`),
        ),
      )
      continue
    }
    const base = /([^/\\]+)\.flow\.(ya?ml|json)$/.exec(file.file)?.[1]
    if (base !== undefined && base !== name) {
      diagnostics.push(
        flow.source.diagnostic({
          path: ['name'],
          severity: 'warning',
          message: `flow '${name}' is in a file named '${base}'; name the file ${name}.flow.yaml`,
        }),
      )
    }
    flows.set(name, flow)
  }

  const registry = new Map<string, CompiledFlow>(
    [...flows].map(([name, flow]) => [name, flow.compiled]),
  )
  for (const found of checkCallGraph(registry)) {
    const flow = flows.get(found.flow)
    if (flow) diagnostics.push(flow.source.diagnostic(problem(found.path, found.message)))
  }

  const source = parseSource(projectFile.file, projectFile.text)
  let document: ProjectDocument | undefined
  if (source.syntaxErrors.length > 0) diagnostics.push(...source.syntaxErrors)
  else {
    const schemaProblems = validateAgainstSchema('project', source.value)
    if (schemaProblems.length > 0)
      diagnostics.push(...schemaProblems.map((p) => source.diagnostic(p)))
    else {
      document = source.value as ProjectDocument
      // Flows that failed to load are still known by name, so references to them are not
      // reported a second time as unknown.
      const names = new Set([...flows.keys(), ...flowFiles.map((f) => nameFromFile(f.file))])
      diagnostics.push(...checkProjectReferences(document, names).map((p) => source.diagnostic(p)))
    }
  }

  if (document === undefined || diagnostics.some((d) => d.severity === 'error')) {
    return { kind: 'invalid', diagnostics: sortDiagnostics(diagnostics) }
  }
  return {
    kind: 'loaded',
    project: { document, flows, registry },
    warnings: sortDiagnostics(diagnostics),
  }
}

/** Reads a project directory; diagnostics name files as `<directory>/flows/<file>`. */
export async function loadProjectDirectory(
  directory: string,
  options: CompileOptions = {},
): Promise<ProjectLoad> {
  const tooLarge: Diagnostic[] = []
  const readSource = async (relative: string): Promise<SourceFile> => {
    const file = join(directory, relative)
    if ((await stat(file)).size > maxSourceBytes) {
      tooLarge.push(located(file, `file is larger than ${maxSourceBytes} bytes`))
      return { file, text: '' }
    }
    return { file, text: await readFile(file, 'utf8') }
  }
  let entries: string[]
  try {
    entries = await readdir(directory)
  } catch {
    return {
      kind: 'invalid',
      diagnostics: [located(directory, `cannot read project directory '${directory}'`)],
    }
  }
  const projectName = projectFileNames.find((name) => entries.includes(name))
  if (projectName === undefined) {
    return {
      kind: 'invalid',
      diagnostics: [
        located(
          join(directory, 'flowgate.yaml'),
          'missing project file (flowgate.yaml, flowgate.yml or flowgate.json)',
        ),
      ],
    }
  }
  const flowNames = entries.includes('flows')
    ? (await readdir(join(directory, 'flows'))).sort()
    : []
  const ignored = flowNames.filter(
    (name) => /\.(ya?ml|json)$/.test(name) && !flowFilePattern.test(name),
  )
  const flowFiles = await Promise.all(
    flowNames
      .filter((name) => flowFilePattern.test(name))
      .map((name) => readSource(join('flows', name))),
  )
  const load = loadProjectSources(await readSource(projectName), flowFiles, options)
  const notes = ignored.map((name) => ({
    ...located(join(directory, 'flows', name), `ignored: flow files are named <name>.flow.yaml`),
    severity: 'warning' as const,
  }))
  if (tooLarge.length > 0) {
    return {
      kind: 'invalid',
      diagnostics: [
        ...tooLarge,
        ...notes,
        ...(load.kind === 'invalid' ? load.diagnostics : load.warnings),
      ],
    }
  }
  return load.kind === 'loaded'
    ? { ...load, warnings: [...notes, ...load.warnings] }
    : { ...load, diagnostics: [...notes, ...load.diagnostics] }
}

function nameFromFile(file: string): string {
  return /([^/\\]+)\.flow\.(ya?ml|json)$/.exec(file)?.[1] ?? file
}

function located(file: string, message: string): Diagnostic {
  return { file, line: 1, column: 1, message, severity: 'error' }
}

function sortDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column,
  )
}
