/**
 * Workflow Authentication (seed sections 2.1-2.4, 4.1, 5, 7; SPEC 6): an authentication flow,
 * deployed like any flow, runs before the business flow and decides.
 *
 * 1. The authentication deployment is the flow on the configured stage (`current`: the
 *    request's stage) and endpoint. None: 404, exactly as a missing business deployment.
 * 2. Its inputs come from the same request, read by the method of the *authentication*
 *    endpoint (GET/DELETE: query; POST/PUT/PATCH: JSON object body), whatever the business
 *    method; implicit inputs and wrap body/headers as for any deployed flow.
 * 3. It runs under its own time limit (5 s unless the application sets `timeoutMs`).
 * 4. Error (throw, timeout, run-time error): refused with the flow's error response and the
 *    authentication deployment's Error Status Code, 401 when unset.
 *    `success` absent or falsy: refused with the flow's response mapping (explicit Custom
 *    Response Configuration, else implicit response variables), 401 and UNAUTHENTICATED
 *    where nothing is mapped.
 *    Any other `success`: the business flow runs with the context of seed 2.3 rules 1-5.
 */
import { FlowFailure } from '../../engine/flow-error.js'
import { errorResponse, type GatewayResponse } from '../http-types.js'
import { buildRunRequest, requestParameters } from '../request/inputs.js'
import { mapResponse } from '../response/response-mapping.js'
import { deploymentKey, type ApplicationRoutes } from '../routing/route-table.js'
import { flowErrorResponse, runAndRecord, type GatewayServices } from '../serve-deployment.js'
import type { AuthMechanism, AuthOutcome, RunContext } from './types.js'

export interface WorkflowSettings {
  readonly stage: string
  readonly endpoint: string
  readonly timeoutMs?: number
}

export const defaultAuthenticationTimeoutMs = 5_000

/** Context properties an authentication flow cannot move (SPEC 2). */
const systemProperties = new Set(['application', 'stage', 'method', 'path', 'flow', 'executionId'])

const unauthenticated = { error: { code: 'UNAUTHENTICATED', message: 'Authentication failed' } }

export function workflowAuthenticator(
  settings: WorkflowSettings,
  app: ApplicationRoutes,
  services: GatewayServices,
): AuthMechanism {
  const timeoutMs = settings.timeoutMs ?? defaultAuthenticationTimeoutMs
  const missing: AuthOutcome = {
    kind: 'rejected',
    code: 'NOT_FOUND',
    response: errorResponse(404, 'NOT_FOUND', 'Nothing is deployed at this address'),
  }
  return {
    type: 'workflow',
    async authenticate(attempt): Promise<AuthOutcome> {
      const stage = settings.stage === 'current' ? attempt.stage : settings.stage
      const route = app.deployments.get(deploymentKey(stage, settings.endpoint))
      if (route === undefined) return missing

      const parameters = requestParameters(attempt.request, route.endpoint.method)
      const system = {
        application: attempt.application,
        stage: attempt.stage,
        method: attempt.method,
        path: attempt.path,
      }
      const runRequest = buildRunRequest(
        route.flow.compiled,
        parameters,
        {},
        system,
        attempt.request,
        attempt.context,
      )
      const { result, executionId } = await runAndRecord(
        route,
        attempt.request.requestId,
        runRequest,
        'authentication',
        services,
        timeoutMs,
      )
      const tag = { 'x-execution-id': executionId }

      if (result.kind === 'failed') {
        return rejected(
          'AUTHENTICATION_FLOW_FAILED',
          withHeaders(
            flowErrorResponse(result.error, route.errorStatusCode ?? 401, {
              inputErrorStatus: route.errorStatusCode ?? 401,
            }),
            tag,
          ),
        )
      }
      if (!succeeded(result.outputs.success)) {
        try {
          const response = await mapResponse(
            route.response,
            { variables: result.variables, outputs: result.outputs, context: attempt.context },
            {
              insecureMappings: services.insecureMappings,
              defaultStatus: 401,
              defaultBody: unauthenticated,
            },
          )
          return rejected('UNAUTHENTICATED', withHeaders(response, tag))
        } catch (error) {
          const failure =
            error instanceof FlowFailure
              ? error
              : new FlowFailure('RESPONSE_MAPPING_INVALID', 'The response mapping failed')
          return rejected(
            'AUTHENTICATION_FLOW_FAILED',
            withHeaders(
              flowErrorResponse(
                failure.toFlowError(route.flow.compiled.name),
                route.errorStatusCode ?? 401,
              ),
              tag,
            ),
          )
        }
      }
      return {
        kind: 'authenticated',
        context: authenticatedContext(attempt.context, result.outputs),
      }
    },
  }
}

/**
 * Seed 2.3, rules 2-5. `outputs` holds present outputs only (the "present" rule), so a key
 * being there is what "present" means, null and falsy values included.
 */
export function authenticatedContext(
  base: RunContext,
  outputs: Readonly<Record<string, unknown>>,
): RunContext {
  let context: RunContext
  const propagated = outputs.context
  if (propagated !== undefined) {
    // Rule 3: the context output's properties are propagated.
    context = { ...base }
    if (propagated !== null && typeof propagated === 'object' && !Array.isArray(propagated)) {
      for (const [key, value] of Object.entries(propagated)) {
        if (!systemProperties.has(key))
          context[key] = key === 'authorities' ? authorityList(value) : value
      }
    }
  } else if ('userName' in outputs || 'authorities' in outputs) {
    // Rule 4: a new context from userName and authorities; the owner's roles do not carry over.
    context = Object.assign({}, base, { userName: null, authorities: [] })
  } else {
    // Rule 2: the default context (the owner, or whom an earlier mechanism authenticated).
    return base
  }
  // Rule 5: when present they override, even if null or falsy.
  if ('userName' in outputs) context.userName = outputs.userName
  if ('authorities' in outputs) context.authorities = authorityList(outputs.authorities)
  return context
}

/** `authorities` may be a string or a list of strings: a single string becomes a list. */
function authorityList(value: unknown): unknown {
  return typeof value === 'string' ? [value] : value
}

/** Seed 2.3 rule 1: absent or falsy (false, 0, "", null) refuses; any other value succeeds. */
function succeeded(value: unknown): boolean {
  return Boolean(value)
}

function rejected(code: string, response: GatewayResponse): AuthOutcome {
  return { kind: 'rejected', code, response }
}

function withHeaders(response: GatewayResponse, headers: Record<string, string>): GatewayResponse {
  return { ...response, headers: { ...response.headers, ...headers } }
}
