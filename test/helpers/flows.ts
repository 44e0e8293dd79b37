/** Test helpers: compile flows from YAML text and run them through the engine's public API. */
import { expect } from 'vitest'
import type { CompiledFlow } from '../../src/engine/definition.js'
import {
  runFlow,
  type RunOptions,
  type RunRequest,
  type RunResult,
} from '../../src/engine/interpreter.js'
import { loadFlowText } from '../../src/project/load-flow.js'
import { formatDiagnostic } from '../../src/project/source-document.js'

export function compile(yaml: string): CompiledFlow {
  const load = loadFlowText('test.flow.yaml', yaml)
  if (load.kind === 'invalid') {
    throw new Error(`flow does not compile:\n${load.diagnostics.map(formatDiagnostic).join('\n')}`)
  }
  return load.flow.compiled
}

/** The diagnostics of a flow that must not compile, formatted `file:line:col message`. */
export function problemsOf(yaml: string): string[] {
  const load = loadFlowText('test.flow.yaml', yaml)
  if (load.kind === 'loaded') throw new Error('expected the flow to be invalid')
  return load.diagnostics.map(formatDiagnostic)
}

export function run(
  flow: CompiledFlow | string,
  request: RunRequest = {},
  options: RunOptions = {},
): Promise<RunResult> {
  return runFlow(typeof flow === 'string' ? compile(flow) : flow, request, options)
}

export async function outputsOf(
  flow: CompiledFlow | string,
  request: RunRequest = {},
  options: RunOptions = {},
): Promise<Record<string, unknown>> {
  const result = await run(flow, request, options)
  if (result.kind === 'failed') throw new Error(`flow failed: ${JSON.stringify(result.error)}`)
  return result.outputs
}

export async function errorOf(
  flow: CompiledFlow | string,
  request: RunRequest = {},
  options: RunOptions = {},
) {
  const result = await run(flow, request, options)
  expect(result.kind).toBe('failed')
  if (result.kind !== 'failed') throw new Error('unreachable')
  return result.error
}

/** A flow with the given variables and steps (YAML fragments, indented by the caller). */
export function flow(variables: string, steps: string, extra = ''): string {
  return `name: t\n${extra}start:\n  variables:\n${variables}\nsteps:\n${steps}\n`
}
