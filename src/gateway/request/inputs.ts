/**
 * Input mapping (SPEC 4.3, seed 2.1 and 2.2): which request values a flow's inputs take.
 *
 * - the parameters come from the query string for GET and DELETE, from the JSON object body for
 *   POST, PUT and PATCH: by the method of the endpoint the flow is deployed on;
 * - path parameters (`/orders/{id}`) join them;
 * - implicit inputs `application`, `stage`, `method`, `path` take their system values when the
 *   flow declares an input of that name, overriding any request value of that name; with wrap
 *   body the request's own value stays reachable as `$body.<name>`.
 * Conversion to declared types happens in the engine (convert.ts).
 */
import type { CompiledFlow } from '../../engine/definition.js'
import type { RunRequest } from '../../engine/interpreter.js'
import type { GatewayRequest } from '../http-types.js'

export interface SystemValues {
  readonly application: string
  readonly stage: string
  readonly method: string
  /** The request's URL path without the query string: `/shop/prod/orders/7`. */
  readonly path: string
}

const implicitInputs = ['application', 'stage', 'method', 'path'] as const

export function readsBody(method: string): boolean {
  return method === 'POST' || method === 'PUT' || method === 'PATCH'
}

/** The request parameters a flow deployed with `endpointMethod` reads. */
export function requestParameters(
  request: GatewayRequest,
  endpointMethod: string,
): Record<string, unknown> {
  if (readsBody(endpointMethod)) {
    const body = request.body
    return body !== null && typeof body === 'object' && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : {}
  }
  return request.query
}

export function buildRunRequest(
  flow: CompiledFlow,
  parameters: Record<string, unknown>,
  pathParameters: Readonly<Record<string, string>>,
  system: SystemValues,
  request: GatewayRequest,
  context: Readonly<Record<string, unknown>>,
): RunRequest {
  let inputs: Record<string, unknown> = parameters
  const hasPathParameters = Object.keys(pathParameters).length > 0
  const overrides = implicitInputs.filter((name) => flow.variables.get(name)?.input === true)
  if (hasPathParameters || overrides.length > 0) {
    inputs = { ...parameters, ...pathParameters }
    for (const name of overrides) inputs[name] = system[name]
  }
  return {
    inputs,
    ...(flow.wrapBody && { body: parameters }),
    ...(flow.wrapHeaders && { headers: request.headers }),
    context,
  }
}
