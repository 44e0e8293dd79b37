/**
 * Reads one flow file: parse with positions, check against the flow schema, compile. Every
 * problem comes back as a located diagnostic; nothing is thrown for bad input.
 */
import { createHash } from 'node:crypto'
import { compileFlow, type CompileOptions } from '../engine/compile-flow.js'
import type { CompiledFlow, FlowDocument } from '../engine/definition.js'
import { validateAgainstSchema } from './schema-validation.js'
import { parseSource, type Diagnostic, type SourceDocument } from './source-document.js'

export interface LoadedFlow {
  readonly file: string
  readonly source: SourceDocument
  readonly document: FlowDocument
  readonly compiled: CompiledFlow
  /** sha256 of the file's text: a changed flow makes a new version. */
  readonly hash: string
  readonly text: string
}

export type FlowLoad =
  | { kind: 'loaded'; flow: LoadedFlow; warnings: Diagnostic[] }
  | { kind: 'invalid'; diagnostics: Diagnostic[] }

/** Flow files are `<name>.flow.yaml`, `.flow.yml` or `.flow.json`. */
export const flowFilePattern = /\.flow\.(ya?ml|json)$/

export function loadFlowText(file: string, text: string, options: CompileOptions = {}): FlowLoad {
  const source = parseSource(file, text)
  if (source.syntaxErrors.length > 0)
    return { kind: 'invalid', diagnostics: [...source.syntaxErrors] }
  const schemaProblems = validateAgainstSchema('flow', source.value)
  if (schemaProblems.length > 0) {
    return { kind: 'invalid', diagnostics: schemaProblems.map((p) => source.diagnostic(p)) }
  }
  const document = source.value as FlowDocument
  const result = compileFlow(document, options)
  if (result.kind === 'invalid') {
    return { kind: 'invalid', diagnostics: result.problems.map((p) => source.diagnostic(p)) }
  }
  const hash = createHash('sha256').update(text).digest('hex')
  return {
    kind: 'loaded',
    flow: { file, source, document, compiled: result.flow, hash, text },
    warnings: result.warnings.map((p) => source.diagnostic(p)),
  }
}
