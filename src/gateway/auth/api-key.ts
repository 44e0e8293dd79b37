/**
 * The `apiKey` mechanism: a key in the `x-api-key` header or the `api_key` query parameter,
 * looked up by its sha256 (keys are never stored in clear, nor compared in clear).
 * The key's user becomes the context user, its roles the authorities. A key of another
 * project does not open this application.
 */
import { hash } from 'node:crypto'
import { errorResponse } from '../http-types.js'
import type { RuntimeApiKey, RuntimeProject } from '../../services/runtime-configuration.js'
import type { AuthMechanism, AuthOutcome } from './types.js'

const challenge = { 'www-authenticate': 'ApiKey header="x-api-key", query="api_key"' }

export function apiKeyAuthenticator(
  keys: ReadonlyMap<string, RuntimeApiKey>,
  project: RuntimeProject,
): AuthMechanism {
  const missing: AuthOutcome = {
    kind: 'rejected',
    code: 'AUTH_REQUIRED',
    response: errorResponse(
      401,
      'AUTH_REQUIRED',
      'An API key is required (x-api-key header or api_key query parameter)',
      {},
      challenge,
    ),
  }
  const unknown: AuthOutcome = {
    kind: 'rejected',
    code: 'AUTH_INVALID_CREDENTIALS',
    response: errorResponse(
      401,
      'AUTH_INVALID_CREDENTIALS',
      'The API key is not valid',
      {},
      challenge,
    ),
  }
  return {
    type: 'apiKey',
    authenticate(attempt) {
      const key = presentedKey(attempt.request.headers['x-api-key'], attempt.request.query.api_key)
      if (key === undefined) return missing
      const entry = lookupApiKey(keys, key)
      if (entry === undefined || entry.project !== project) return unknown
      return {
        kind: 'authenticated',
        // Object.assign: a spread followed by named properties is a slow path in V8.
        context: Object.assign({}, attempt.context, {
          userName: entry.user.name,
          authorities: entry.user.roles,
        }),
      }
    },
  }
}

/** The registered key a presented key is, found by its sha256 (hex). */
export function lookupApiKey(
  keys: ReadonlyMap<string, RuntimeApiKey>,
  key: string,
): RuntimeApiKey | undefined {
  // Keys are found by their digest, never compared in clear: how long the lookup takes can
  // tell at most something about a digest, and a digest tells nothing about a key. One-shot
  // crypto.hash costs a fifth of createHash (measured), on every keyed request.
  return keys.get(hash('sha256', key))
}

/** The key a client presented, or undefined when none (or an empty one) was sent. */
export function presentedKey(
  header: string | string[] | undefined,
  query: string | undefined,
): string | undefined {
  const value = Array.isArray(header) ? header[0] : header
  if (value !== undefined && value !== '') return value
  return query !== undefined && query !== '' ? query : undefined
}
