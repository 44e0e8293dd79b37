/**
 * How authentication mechanisms talk to the chain: each looks at the request and either lets
 * it through (possibly changing the run's context) or rejects it with the response to send.
 */
import type { MaybePromise } from '../../engine/expressions/template.js'
import type { GatewayRequest, GatewayResponse } from '../http-types.js'

/** The run context being built for the business flow (SPEC 2: `$context`). */
export type RunContext = Record<string, unknown>

export interface AuthAttempt {
  readonly request: GatewayRequest
  readonly application: string
  readonly stage: string
  /** The business endpoint's method; a mechanism may read the request by another one. */
  readonly method: string
  readonly path: string
  /** The context so far: the owner by default, then what earlier mechanisms set. */
  readonly context: RunContext
}

export type AuthOutcome =
  | { readonly kind: 'authenticated'; readonly context: RunContext }
  | { readonly kind: 'rejected'; readonly code: string; readonly response: GatewayResponse }

export interface AuthMechanism {
  readonly type: string
  authenticate(attempt: AuthAttempt): MaybePromise<AuthOutcome>
}
