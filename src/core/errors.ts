/**
 * Every error code flowgate raises, with the HTTP status it maps to and a default message.
 *
 * `docs/errors.md` lists the same codes; `errors.test.ts` keeps the two in step. Flow errors
 * (codes raised while a flow runs) carry a status too, but the gateway answers them with the
 * deployment's Error Status Code: their status here is the default when none is configured.
 * A `throw` step may use any code of its own; those are not listed here.
 */
export const errorCatalogue = {
  // Requests and inputs
  BAD_REQUEST: { status: 400, message: 'The request is malformed' },
  INPUT_REQUIRED: { status: 400, message: 'A required input is missing' },
  INPUT_INVALID: { status: 400, message: 'An input cannot be converted to its declared type' },
  // Files users write
  VALIDATION_FAILED: { status: 400, message: 'The document is invalid' },
  // Flow run outcomes
  FLOW_THROWN: { status: 500, message: 'The flow threw an error' },
  EXPRESSION_FAILED: { status: 500, message: 'An expression failed while it was evaluated' },
  EXPRESSION_LIMIT: { status: 500, message: 'An expression went past a safety limit' },
  TYPE_MISMATCH: {
    status: 500,
    message: 'A value does not match the declared type of its variable',
  },
  FLOW_TIMEOUT: { status: 500, message: 'The flow ran past its time limit' },
  STEP_LIMIT_EXCEEDED: { status: 500, message: 'The flow executed more steps than allowed' },
  CALL_DEPTH_EXCEEDED: { status: 500, message: 'Flows called each other deeper than allowed' },
  HTTP_FAILED: { status: 500, message: 'An HTTP call made by the flow failed' },
  HTTP_TIMEOUT: { status: 500, message: 'An HTTP call made by the flow timed out' },
  FLOW_CANCELLED: { status: 500, message: 'The flow run was cancelled' },
  FLOW_NOT_FOUND: { status: 404, message: 'No such flow' },
  // Anything we did not foresee
  INTERNAL: { status: 500, message: 'Internal error' },
} as const satisfies Record<string, { status: number; message: string }>

export type ErrorCode = keyof typeof errorCatalogue

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(errorCatalogue, code)
}

export function statusOf(code: string): number {
  return isErrorCode(code) ? errorCatalogue[code].status : 500
}

/**
 * An error the product raises on purpose: a code from the catalogue, details for the client,
 * and optionally the cause (kept for logs, never sent).
 *
 * @example throw new AppError('FLOW_NOT_FOUND', { flow: 'greet' })
 */
export class AppError extends Error {
  readonly code: ErrorCode
  readonly details: Readonly<Record<string, unknown>>

  constructor(
    code: ErrorCode,
    details: Record<string, unknown> = {},
    options: { message?: string; cause?: unknown } = {},
  ) {
    super(options.message ?? errorCatalogue[code].message, { cause: options.cause })
    this.name = 'AppError'
    this.code = code
    this.details = details
  }

  get status(): number {
    return errorCatalogue[this.code].status
  }
}
