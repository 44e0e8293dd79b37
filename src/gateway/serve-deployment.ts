/**
 * The hot path of a business request, once routing found its deployment (SPEC 4):
 * authentication chain, input mapping, the flow run, response mapping, the execution record.
 * Everything it reads was prepared when the configuration loaded; nothing here touches the
 * store except through the batched recorder.
 */
import { uuidv7 } from '../core/ids.js'
import { FlowFailure, type FlowError } from '../engine/flow-error.js'
import { isPromise } from '../engine/expressions/template.js'
import { runFlow, type RunResult } from '../engine/interpreter.js'
import { runOptions, type RunEnvironment } from '../services/run-options.js'
import { finishedExecution, type ExecutionTrigger } from '../storage/records.js'
import type { RunContext } from './auth/types.js'
import type { ExecutionRecorder } from './execution-recorder.js'
import { errorResponse, type GatewayRequest, type GatewayResponse } from './http-types.js'
import type { GatewayMetrics } from './metrics.js'
import {
  buildRunRequest,
  readsBody,
  requestParameters,
  type SystemValues,
} from './request/inputs.js'
import { mapResponse } from './response/response-mapping.js'
import type { ApplicationRoutes, DeploymentRoute } from './routing/route-table.js'

/** What every request shares; flow runs take their logger, fetch and signal from it. */
export interface GatewayServices extends RunEnvironment {
  readonly recorder: ExecutionRecorder
  readonly metrics: GatewayMetrics
  readonly insecureMappings: boolean
  /** Audit and error lines (rejections, internal errors). */
  readonly log: (
    level: 'info' | 'warn' | 'error',
    message: string,
    fields: Record<string, unknown>,
  ) => void
  readonly flowTimeoutMs?: number
}

export interface Served {
  readonly response: GatewayResponse
  readonly executionId?: string
}

/** Statuses for errors a flow run reports about its inputs: the client's fault. */
const inputErrors = new Set(['INPUT_REQUIRED', 'INPUT_INVALID'])

export async function serveDeployment(
  request: GatewayRequest,
  route: DeploymentRoute,
  app: ApplicationRoutes,
  pathParameters: Record<string, string>,
  services: GatewayServices,
): Promise<Served> {
  const { endpoint } = route
  if (readsBody(endpoint.method) && request.body !== undefined && !isObject(request.body)) {
    return { response: errorResponse(400, 'BAD_REQUEST', 'The body must be a JSON object') }
  }
  const system: SystemValues = {
    application: route.application.document.name,
    stage: route.stage,
    method: request.method,
    path: request.path,
  }
  const owner = route.application.owner
  const defaultContext: RunContext = {
    userName: owner.name,
    authorities: owner.roles,
    ...system,
  }

  let context = defaultContext
  if (app.auth.mechanisms.length > 0) {
    const outcome = await app.auth.run(
      {
        request,
        application: system.application,
        stage: system.stage,
        method: system.method,
        path: system.path,
        context: defaultContext,
      },
      (type, code) =>
        services.log('info', 'authentication rejected', {
          requestId: request.requestId,
          route: route.label,
          mechanism: type,
          code,
        }),
    )
    if (outcome.kind === 'rejected') return { response: outcome.response }
    // What authentication propagates cannot move the request elsewhere.
    context = { ...outcome.context, ...system }
  }

  const parameters = requestParameters(request, endpoint.method)
  const runRequest = buildRunRequest(
    route.flow.compiled,
    withoutCredentials(parameters, app),
    pathParameters,
    system,
    request,
    context,
  )
  const { result, executionId } = await runAndRecord(
    route,
    request.requestId,
    runRequest,
    'http',
    services,
  )
  if (result.kind === 'failed')
    return { response: flowErrorResponse(result.error, route.errorStatusCode ?? 500), executionId }

  try {
    const mapped = mapResponse(
      route.response,
      { variables: result.variables, outputs: result.outputs, context },
      { insecureMappings: services.insecureMappings },
    )
    return { response: isPromise(mapped) ? await mapped : mapped, executionId }
  } catch (error) {
    const failure =
      error instanceof FlowFailure
        ? error
        : new FlowFailure('RESPONSE_MAPPING_INVALID', 'The response mapping failed')
    return {
      response: flowErrorResponse(
        failure.toFlowError(route.flow.compiled.name),
        route.errorStatusCode ?? 500,
      ),
      executionId,
    }
  }
}

/** Runs a deployed flow and records the execution (batched, off the request path). */
export async function runAndRecord(
  route: DeploymentRoute,
  requestId: string,
  runRequest: Parameters<typeof runFlow>[1],
  trigger: ExecutionTrigger,
  services: GatewayServices,
  timeoutMs?: number,
): Promise<{ result: RunResult; executionId: string }> {
  const startedAt = Date.now()
  const executionId = uuidv7(startedAt)
  const started = performance.now()
  const flow = route.flow.compiled
  const cap = timeoutMs ?? services.flowTimeoutMs
  const result = await runFlow(
    flow,
    runRequest,
    runOptions(services, route.application.project.registry, executionId, cap),
  )
  const durationMs = performance.now() - started
  if (result.kind === 'failed' && result.error.code === 'INTERNAL') {
    services.log('error', 'internal error in a flow run', {
      requestId,
      executionId,
      flow: flow.name,
      err: result.cause,
    })
  }
  services.metrics.flowRun(
    flow.name,
    trigger,
    result.kind === 'completed' ? 'succeeded' : 'failed',
    durationMs / 1000,
  )
  services.recorder.record(
    finishedExecution({
      id: executionId,
      requestId,
      projectId: route.application.project.id,
      flow: flow.name,
      flowVersion: route.flow.version,
      trigger,
      application: route.application.document.name,
      stage: route.stage,
      endpoint: route.endpoint.name,
      startedAt,
      finishedAt: startedAt + durationMs,
      durationMs,
      error: result.kind === 'failed' ? result.error : undefined,
    }),
  )
  return { result, executionId }
}

/**
 * SPEC 4.4: a flow error answers with the deployment's Error Status Code and
 * `{"error": {"code", "message", "flow", "step"}}`. Input errors are the client's: 400 (an
 * authentication flow says otherwise: to it, missing credentials are a 401).
 */
export function flowErrorResponse(
  error: FlowError,
  status: number,
  options: { inputErrorStatus?: number } = {},
): GatewayResponse {
  if (inputErrors.has(error.code)) {
    return errorResponse(options.inputErrorStatus ?? 400, error.code, error.message, {
      flow: error.flow,
      ...(error.details && { details: error.details }),
    })
  }
  if (error.code === 'INTERNAL') {
    return errorResponse(status, 'INTERNAL', 'Internal error while running the flow', {
      flow: error.flow,
      ...(error.step !== undefined && { step: error.step }),
    })
  }
  return errorResponse(status, error.code, error.message, {
    flow: error.flow,
    ...(error.step !== undefined && { step: error.step }),
    ...(error.stepId !== undefined && { stepId: error.stepId }),
    ...(error.details !== undefined && { details: error.details }),
  })
}

function isObject(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** The API key is a credential, not a parameter: flows behind `apiKey` never see it. */
function withoutCredentials(
  parameters: Record<string, unknown>,
  app: ApplicationRoutes,
): Record<string, unknown> {
  if (!('api_key' in parameters) || !app.auth.mechanisms.some((m) => m.type === 'apiKey'))
    return parameters
  const rest = { ...parameters }
  delete rest.api_key
  return rest
}
