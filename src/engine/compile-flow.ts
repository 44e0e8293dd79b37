/**
 * Compiles a flow document (already checked against `schemas/flow.schema.json`) into the form
 * the interpreter runs: variables resolved, every expression compiled once, names checked.
 * Problems are collected, not thrown, so that a user sees all of them at once.
 */
import { formatPath, problem, warning, type DocumentPath, type Problem } from '../core/problems.js'
import { blocks } from './blocks/index.js'
import type { StepCompiler } from './blocks/block.js'
import { hasType } from './convert.js'
import {
  stepKinds,
  type CallSite,
  type CompiledFlow,
  type FlowDocument,
  type Step,
  type StepDocument,
  type StepKindName,
  type Variable,
  type VariableDocument,
} from './definition.js'
import { defaultExpressionLimits, type ExpressionLimits } from './expressions/guards.js'
import { jsonataFunctionNames } from './expressions/reserved-names.js'
import { compileTemplate, type TemplateCompiler } from './expressions/template.js'

export interface CompileOptions {
  /** Defaults for flows that do not set `limits`. */
  readonly defaultTimeoutMs?: number
  readonly defaultMaxSteps?: number
  readonly expressionLimits?: ExpressionLimits
}

export const engineDefaults = Object.freeze({
  timeoutMs: 30_000,
  maxSteps: 100_000,
  maxCallDepth: 8,
})

export type CompileResult =
  | { kind: 'compiled'; flow: CompiledFlow; warnings: Problem[] }
  | { kind: 'invalid'; problems: Problem[] }

/** Names bound by the engine next to flow variables; a variable of that name hides them. */
const systemBindings = new Set(['context', 'body', 'headers'])

const stepKindSet: ReadonlySet<string> = new Set(stepKinds)

export function compileFlow(document: FlowDocument, options: CompileOptions = {}): CompileResult {
  const problems: Problem[] = []
  const limits = {
    timeoutMs: document.limits?.timeoutMs ?? options.defaultTimeoutMs ?? engineDefaults.timeoutMs,
    maxSteps: document.limits?.maxSteps ?? options.defaultMaxSteps ?? engineDefaults.maxSteps,
  }
  const variables = compileVariables(document.start?.variables ?? [], problems)
  const templates: TemplateCompiler = {
    timeoutMs: limits.timeoutMs,
    limits: options.expressionLimits ?? defaultExpressionLimits,
    problems,
  }
  const calls: CallSite[] = []

  const compileSteps = (
    value: unknown,
    at: DocumentPath,
    loopDepth: number,
    bound: readonly string[],
  ): Step[] => {
    if (!Array.isArray(value)) {
      problems.push(problem(at, 'expected a list of steps'))
      return []
    }
    const steps: Step[] = []
    value.forEach((item: unknown, index) => {
      const path = [...at, index]
      const document = item as StepDocument
      const kind = Object.keys(document).find((key): key is StepKindName => stepKindSet.has(key))
      if (kind === undefined) {
        problems.push(problem(path, `unknown step (expected one of ${stepKinds.join(', ')})`))
        return
      }
      const compiler = stepCompiler(path, document, loopDepth, bound)
      // Each block's compile is typed by its own kind; the registry guarantees they agree.
      steps.push(
        (blocks[kind].compile as (d: StepDocument, c: StepCompiler) => Step)(document, compiler),
      )
    })
    return steps
  }

  const stepCompiler = (
    path: DocumentPath,
    document: StepDocument,
    loopDepth: number,
    bound: readonly string[],
  ): StepCompiler => ({
    path,
    pathText: formatPath(path),
    id: typeof document.id === 'string' ? document.id : undefined,
    problems,
    variables,
    loopDepth,
    calls,
    template: (value, at) => compileTemplate(value, at, templates),
    steps: (value, at, opts = {}) =>
      compileSteps(value, at, opts.loop ? loopDepth + 1 : loopDepth, [
        ...bound,
        ...(opts.binds ?? []),
      ]),
    target(name, at) {
      if (typeof name !== 'string') return undefined
      if (variables.has(name)) return name
      const hint = bound.includes(name)
        ? ` ('${name}' is bound by an enclosing step and is read-only)`
        : ''
      const declared = [...variables.keys()].join(', ')
      problems.push(
        problem(
          at,
          `cannot assign '${name}': it is not a declared variable${hint} (declared: ${declared})`,
        ),
      )
      return undefined
    },
    binding(name, at) {
      if (typeof name !== 'string') return undefined
      const clash = variables.has(name)
        ? 'a declared variable'
        : bound.includes(name)
          ? 'a name bound by an enclosing step'
          : jsonataFunctionNames.has(name)
            ? `the JSONata function $${name}`
            : systemBindings.has(name)
              ? `$${name}, bound by the engine`
              : undefined
      if (clash !== undefined) {
        problems.push(problem(at, `the name '${name}' would hide ${clash}; choose another`))
        return undefined
      }
      return name
    },
  })

  const steps = compileSteps(document.steps, ['steps'], 0, [])
  const errors = problems.filter((p) => p.severity === 'error')
  if (errors.length > 0) return { kind: 'invalid', problems }
  const all = [...variables.values()]
  return {
    kind: 'compiled',
    warnings: problems.filter((p) => p.severity === 'warning'),
    flow: Object.freeze({
      name: document.name,
      wrapBody: document.start?.wrapBody ?? false,
      wrapHeaders: document.start?.wrapHeaders ?? false,
      variables,
      inputs: all.filter((v) => v.input),
      outputs: all.filter((v) => v.output),
      steps,
      limits,
      calls,
    }),
  }
}

function compileVariables(
  documents: readonly VariableDocument[],
  problems: Problem[],
): Map<string, Variable> {
  const variables = new Map<string, Variable>()
  documents.forEach((doc, index) => {
    const at = ['start', 'variables', index]
    if (variables.has(doc.name)) {
      problems.push(problem([...at, 'name'], `variable '${doc.name}' is declared twice`))
      return
    }
    if (jsonataFunctionNames.has(doc.name)) {
      problems.push(
        problem(
          [...at, 'name'],
          `the name '${doc.name}' would hide the JSONata function $${doc.name}; choose another`,
        ),
      )
      // Still declared below, so that steps assigning it do not add a second, misleading error.
    }
    const type = doc.type ?? 'any'
    if (doc.default !== undefined && !hasType(doc.default, type)) {
      problems.push(problem([...at, 'default'], `the default of '${doc.name}' is not a ${type}`))
    }
    if (doc.required && !doc.input) {
      problems.push(
        problem([...at, 'required'], `'${doc.name}' is required but not an input; add input: true`),
      )
    }
    if (doc.required && doc.default !== undefined) {
      problems.push(
        warning([...at, 'default'], `'${doc.name}' is required, so its default is never used`),
      )
    }
    variables.set(doc.name, {
      name: doc.name,
      type,
      default: doc.default,
      input: doc.input ?? false,
      required: doc.required ?? false,
      // `result` is always an output: it is what a trigger returns.
      output: doc.name === 'result' ? true : (doc.output ?? false),
    })
  })
  if (!variables.has('result')) {
    variables.set('result', {
      name: 'result',
      type: 'any',
      default: undefined,
      input: false,
      required: false,
      output: true,
    })
  }
  return variables
}
