/**
 * An application's authentication: its mechanisms in the listed order, every one must pass.
 * Each gets the context the previous ones produced; the first rejection ends the chain and its
 * response is sent. Built once per application when the configuration loads, never per
 * request. Rejections are reported to `onRejected` (audited in the request log).
 *
 * @example
 * const chain = authChain([apiKeyAuthenticator(keys, project)])
 * const outcome = await chain.run(attempt)
 */
import { isPromise, type MaybePromise } from '../../engine/expressions/template.js'
import type { AuthAttempt, AuthMechanism, AuthOutcome } from './types.js'

export interface AuthChain {
  readonly mechanisms: readonly AuthMechanism[]
  run(
    attempt: AuthAttempt,
    onRejected?: (type: string, code: string) => void,
  ): MaybePromise<AuthOutcome>
}

export function authChain(mechanisms: readonly AuthMechanism[]): AuthChain {
  const run = (
    attempt: AuthAttempt,
    from: number,
    onRejected?: (type: string, code: string) => void,
  ): MaybePromise<AuthOutcome> => {
    let current = attempt
    for (let i = from; i < mechanisms.length; i++) {
      const mechanism = mechanisms[i]!
      const outcome = mechanism.authenticate(current)
      if (isPromise(outcome)) {
        return outcome.then((settled) => {
          if (settled.kind === 'rejected') {
            onRejected?.(mechanism.type, settled.code)
            return settled
          }
          return run(withContext(current, settled.context), i + 1, onRejected)
        })
      }
      if (outcome.kind === 'rejected') {
        onRejected?.(mechanism.type, outcome.code)
        return outcome
      }
      current = withContext(current, outcome.context)
    }
    return { kind: 'authenticated', context: current.context }
  }
  return { mechanisms, run: (attempt, onRejected) => run(attempt, 0, onRejected) }
}

/** The attempt for the next mechanism (Object.assign: a spread followed by a named property
 * is a slow path in V8). */
function withContext(attempt: AuthAttempt, context: AuthAttempt['context']): AuthAttempt {
  return Object.assign({}, attempt, { context })
}
