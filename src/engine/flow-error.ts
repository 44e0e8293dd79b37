import type { ErrorCode } from '../core/errors.js'

/**
 * The one structured error a flow run ends with. `step` is the step path (`steps[2].then[0]`),
 * `stepId` the step's `id` when it has one. `code` is a catalogue code, or the user's own code
 * for a `throw` step.
 */
export interface FlowError {
  readonly code: string
  readonly message: string
  readonly flow: string
  readonly step?: string
  readonly stepId?: string
  readonly details?: Readonly<Record<string, unknown>>
}

/**
 * Thrown inside the interpreter to unwind a run; the interpreter turns it into a `FlowError`
 * value at its boundary, so nothing outside the engine sees it.
 */
export class FlowFailure extends Error {
  constructor(
    readonly code: ErrorCode | (string & {}),
    message: string,
    readonly details?: Record<string, unknown>,
    /** Set by the interpreter at the step where the failure surfaced (innermost wins). */
    public located?: { flow: string; step?: string; stepId?: string },
  ) {
    super(message)
    this.name = 'FlowFailure'
  }

  toFlowError(fallbackFlow: string): FlowError {
    const where = this.located ?? { flow: fallbackFlow }
    return {
      code: this.code,
      message: this.message,
      flow: where.flow,
      ...(where.step !== undefined && { step: where.step }),
      ...(where.stepId !== undefined && { stepId: where.stepId }),
      ...(this.details !== undefined && { details: this.details }),
    }
  }
}
