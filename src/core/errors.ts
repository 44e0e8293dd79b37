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
  NOT_FOUND: { status: 404, message: 'Nothing is deployed at this address' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'This address does not accept this method' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is larger than allowed' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'The request body must be JSON' },
  REQUEST_TIMEOUT: { status: 408, message: 'The request took too long to arrive' },
  AUTH_REQUIRED: { status: 401, message: 'Credentials are required' },
  AUTH_INVALID_CREDENTIALS: { status: 401, message: 'The credentials are not valid' },
  FORBIDDEN: { status: 403, message: 'You may not do this' },
  ADMIN_DISABLED: {
    status: 403,
    message: 'The admin API is closed: set FLOWGATE_ADMIN_TOKEN to open it',
  },
  SERVICE_UNAVAILABLE: { status: 503, message: 'The server is not ready or is shutting down' },
  WORKER_GROUP_UNKNOWN: { status: 400, message: 'No such worker group in the project' },
  NO_LIVE_WORKER: { status: 503, message: 'No live worker serves this worker group' },
  SYNC_WAIT_TIMEOUT: { status: 504, message: 'The run did not finish in time; poll its execution' },
  INPUT_REQUIRED: { status: 400, message: 'A required input is missing' },
  INPUT_INVALID: { status: 400, message: 'An input cannot be converted to its declared type' },
  // Files users write
  VALIDATION_FAILED: { status: 400, message: 'The document is invalid' },
  APPLY_CONFLICT: {
    status: 409,
    message: 'The project conflicts with another project in the store',
  },
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
  RESPONSE_MAPPING_INVALID: {
    status: 500,
    message: 'The response mapping produced an invalid response',
  },
  FLOW_NOT_FOUND: { status: 404, message: 'No such flow' },
  WORKER_LOST: {
    status: 500,
    message: 'The worker running the flow stopped and no attempt is left',
  },
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
