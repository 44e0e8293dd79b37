/**
 * What a block (one step kind) is: how it is compiled from its document and how it runs.
 * Every kind in `definition.ts` has one, registered in `blocks/index.ts`; a new kind does not
 * compile until it has both halves.
 */
import type { DocumentPath, Problem } from '../../core/problems.js'
import type {
  CallSite,
  CompiledFlow,
  LogLevel,
  Step,
  StepDocument,
  StepKind,
  Variable,
} from '../definition.js'
import type { Scope } from '../expressions/jsonata-expression.js'
import type { MaybePromise, Template } from '../expressions/template.js'

/** How a step list ended: normally, or by a loop control or `exit` that unwinds it. */
export type Signal = 'next' | 'break' | 'continue' | 'exit'

export interface FlowLogger {
  log(level: LogLevel, message: string, fields: Record<string, unknown>): void
}

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>

/** Everything one run shares across its nested calls. */
export interface RunState {
  readonly deadline: number
  readonly timeoutMs: number
  stepsLeft: number
  readonly maxSteps: number
  readonly maxCallDepth: number
  readonly signal: AbortSignal | undefined
  readonly logger: FlowLogger
  readonly fetch: FetchLike
  readonly now: () => number
  readonly executionId: string
}

/** One flow being run: its compiled form, its variables and what lets blocks recurse. */
export interface Frame {
  readonly flow: CompiledFlow
  readonly scope: Scope
  readonly context: Readonly<Record<string, unknown>>
  readonly depth: number
  readonly state: RunState
  runSteps(steps: readonly Step[]): Promise<Signal>
  /** Counts one unit of work against the run's budgets (steps, time, cancellation). */
  tick(): void
  /** Assigns a declared variable, checking its type (TYPE_MISMATCH otherwise). */
  assign(name: string, value: unknown): void
  /** Runs another flow of the same project; resolves to its outputs. */
  callFlow(name: string, inputs: Record<string, unknown>): Promise<Record<string, unknown>>
}

/** What compiling one step needs from the flow compiler. */
export interface StepCompiler {
  readonly path: DocumentPath
  readonly pathText: string
  readonly id: string | undefined
  readonly problems: Problem[]
  readonly variables: ReadonlyMap<string, Variable>
  /** Inside how many loops this step sits (break/continue need at least one). */
  readonly loopDepth: number
  template(value: unknown, at: DocumentPath): Template
  /** Compiles a nested step list; `loopName` opens a loop that binds that name. */
  steps(value: unknown, at: DocumentPath, options?: { loop?: boolean; binds?: string[] }): Step[]
  /** Checks that a step may write to this name (a declared variable or `result`). */
  target(name: unknown, at: DocumentPath): string | undefined
  /** Checks that a name may be bound inside nested steps (loop item, caught error). */
  binding(name: unknown, at: DocumentPath): string | undefined
  /** Where this flow calls others: for linking, cycle detection and error positions. */
  readonly calls: CallSite[]
}

export interface Block<K extends StepKind> {
  compile(document: StepDocument, compiler: StepCompiler): Extract<Step, { kind: K }>
  execute(step: Extract<Step, { kind: K }>, frame: Frame): MaybePromise<Signal>
}

export const NEXT: MaybePromise<Signal> = 'next'
