/**
 * Loads one flow file for `flowgate run`, plus the flows it calls, found next to it as
 * `<name>.flow.yaml` (or .yml/.json), transitively; then checks the call graph.
 */
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { problem } from '../core/problems.js'
import type { CompiledFlow } from '../engine/definition.js'
import { checkCallGraph, type FlowRegistry } from '../engine/flow-registry.js'
import { loadFlowText, type LoadedFlow } from './load-flow.js'
import type { Diagnostic } from './source-document.js'

export type FlowFileLoad =
  | { kind: 'loaded'; flow: CompiledFlow; registry: FlowRegistry; warnings: Diagnostic[] }
  | { kind: 'invalid'; diagnostics: Diagnostic[] }

export async function loadFlowFile(file: string): Promise<FlowFileLoad> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    return {
      kind: 'invalid',
      diagnostics: [
        {
          file,
          line: 1,
          column: 1,
          message: `cannot read file: ${(error as Error).message}`,
          severity: 'error',
        },
      ],
    }
  }
  const diagnostics: Diagnostic[] = []
  const loaded = new Map<string, LoadedFlow>()
  const first = loadFlowText(file, text)
  if (first.kind === 'invalid') return first
  diagnostics.push(...first.warnings)
  loaded.set(first.flow.compiled.name, first.flow)

  const pending = [first.flow]
  while (pending.length > 0) {
    const caller = pending.pop()!
    for (const call of caller.compiled.calls) {
      if (loaded.has(call.flow)) continue
      const sibling = ['yaml', 'yml', 'json']
        .map((ext) => join(dirname(file), `${call.flow}.flow.${ext}`))
        .find((path) => existsSync(path))
      if (sibling === undefined) {
        diagnostics.push(
          caller.source.diagnostic(
            problem(
              call.path,
              `calls flow '${call.flow}': no ${call.flow}.flow.yaml next to ${file}`,
            ),
          ),
        )
        continue
      }
      const load = loadFlowText(sibling, await readFile(sibling, 'utf8'))
      if (load.kind === 'invalid') {
        diagnostics.push(...load.diagnostics)
        continue
      }
      diagnostics.push(...load.warnings)
      loaded.set(load.flow.compiled.name, load.flow)
      pending.push(load.flow)
    }
  }
  const registry = new Map([...loaded].map(([name, flow]) => [name, flow.compiled]))
  for (const found of checkCallGraph(registry)) {
    const flow = loaded.get(found.flow)
    if (flow) diagnostics.push(flow.source.diagnostic(problem(found.path, found.message)))
  }
  if (diagnostics.some((d) => d.severity === 'error')) return { kind: 'invalid', diagnostics }
  return { kind: 'loaded', flow: first.flow.compiled, registry, warnings: diagnostics }
}
