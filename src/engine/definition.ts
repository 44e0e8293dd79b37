/**
 * The shapes of a flow: as users write it (`FlowDocument`, checked by `schemas/flow.schema.json`)
 * and as the engine runs it (`CompiledFlow`, expressions compiled, readonly, discriminated on `kind`).
 */
import type { Template } from './expressions/template.js'

export const variableTypes = ['string', 'number', 'boolean', 'object', 'array', 'any'] as const
export type VariableType = (typeof variableTypes)[number]

// ---- As written -------------------------------------------------------------------------------

export interface VariableDocument {
  name: string
  type?: VariableType
  default?: unknown
  input?: boolean
  required?: boolean
  output?: boolean
  description?: string
}

export interface FlowDocument {
  name: string
  description?: string
  limits?: { timeoutMs?: number; maxSteps?: number }
  start?: { wrapBody?: boolean; wrapHeaders?: boolean; variables?: VariableDocument[] }
  steps: StepDocument[]
}

/** One item of a step list: a one-key object naming its kind, plus `id` (and then/else/do/catch). */
export type StepDocument = Record<string, unknown>

export const stepKinds = [
  'assign',
  'if',
  'switch',
  'forEach',
  'while',
  'break',
  'continue',
  'exit',
  'throw',
  'try',
  'http',
  'call',
  'context',
  'log',
] as const
export type StepKindName = (typeof stepKinds)[number]

// ---- As run -----------------------------------------------------------------------------------

export interface Variable {
  readonly name: string
  readonly type: VariableType
  /** Undefined when no default is declared (the variable starts absent). */
  readonly default: unknown
  readonly input: boolean
  readonly required: boolean
  readonly output: boolean
}

export interface FlowLimits {
  /** Wall-clock budget of one run, nested calls included. */
  readonly timeoutMs: number
  /** Steps executed in one run, nested calls included: ends endless loops. */
  readonly maxSteps: number
}

export interface CompiledFlow {
  readonly name: string
  readonly wrapBody: boolean
  readonly wrapHeaders: boolean
  readonly variables: ReadonlyMap<string, Variable>
  readonly inputs: readonly Variable[]
  readonly outputs: readonly Variable[]
  readonly steps: readonly Step[]
  readonly limits: FlowLimits
  /** The flows this one calls, for linking and cycle detection. */
  readonly calls: readonly CallSite[]
}

export interface CallSite {
  readonly flow: string
  /** Document path of the `call` step's `flow` key. */
  readonly path: readonly (string | number)[]
}

interface StepBase {
  /** `steps[2].then[0]`: where the step sits in its flow. */
  readonly path: string
  readonly id: string | undefined
}

export interface AssignStep extends StepBase {
  readonly kind: 'assign'
  readonly assignments: readonly { readonly name: string; readonly value: Template }[]
}
export interface IfStep extends StepBase {
  readonly kind: 'if'
  readonly condition: Template
  readonly then: readonly Step[]
  readonly else: readonly Step[]
}
export interface SwitchStep extends StepBase {
  readonly kind: 'switch'
  readonly value: Template
  readonly cases: ReadonlyMap<string, readonly Step[]>
  readonly default: readonly Step[]
}
export interface ForEachStep extends StepBase {
  readonly kind: 'forEach'
  readonly items: Template
  readonly as: string
  readonly index: string | undefined
  readonly do: readonly Step[]
}
export interface WhileStep extends StepBase {
  readonly kind: 'while'
  readonly condition: Template
  readonly do: readonly Step[]
}
export interface BreakStep extends StepBase {
  readonly kind: 'break'
}
export interface ContinueStep extends StepBase {
  readonly kind: 'continue'
}
export interface ExitStep extends StepBase {
  readonly kind: 'exit'
}
export interface ThrowStep extends StepBase {
  readonly kind: 'throw'
  readonly message: Template
  readonly code: Template | undefined
  readonly details: Template | undefined
}
export interface TryStep extends StepBase {
  readonly kind: 'try'
  readonly try: readonly Step[]
  readonly catch: readonly Step[]
  /** Name under which the caught error is visible inside `catch` (`$error` by default). */
  readonly as: string
}
export interface HttpStep extends StepBase {
  readonly kind: 'http'
  readonly method: Template
  readonly url: Template
  readonly headers: Template | undefined
  readonly query: Template | undefined
  readonly body: Template | undefined
  readonly timeoutMs: number
  readonly into: string | undefined
}
export interface CallStep extends StepBase {
  readonly kind: 'call'
  readonly flow: string
  readonly inputs: Template | undefined
  readonly into: string | undefined
}
export interface ContextStep extends StepBase {
  readonly kind: 'context'
  readonly into: string
}
export interface LogStep extends StepBase {
  readonly kind: 'log'
  readonly message: Template
  readonly level: LogLevel
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error'

export type Step =
  | AssignStep
  | IfStep
  | SwitchStep
  | ForEachStep
  | WhileStep
  | BreakStep
  | ContinueStep
  | ExitStep
  | ThrowStep
  | TryStep
  | HttpStep
  | CallStep
  | ContextStep
  | LogStep

export type StepKind = Step['kind']
