/**
 * The trigger endpoint (seed 4.2, SPEC 7) and the execution status endpoint.
 *
 * `/api/v1/trigger/<owner>/<project>/<flow>`, POST (inputs in a JSON object body) or GET (the
 * flow's defaults; extra query parameters are `$body` properties when the flow wraps its
 * body). `api_key` (or `x-api-key`) is required; its user must own the project or hold role
 * `admin`. `sync=true` answers `{"result": <$result>}`; otherwise the run is queued durably
 * and answered 202 with its execution id. Every check happens before anything is queued.
 */
import { uuidv7 } from '../core/ids.js'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Job, JobOutcome, JobQueue } from '../queue/queue.js'
import type { WorkerPool } from '../queue/worker-pool.js'
import type { JobRunner } from '../services/job-runner.js'
import type {
  RuntimeApiKey,
  RuntimeConfiguration,
  RuntimeProject,
} from '../services/runtime-configuration.js'
import { finishedExecution, type ExecutionRecord } from '../storage/records.js'
import type { ExecutionRepository } from '../storage/store.js'
import { lookupApiKey, presentedKey } from './auth/api-key.js'
import { sendGatewayResponse, splitUrl } from './business-plugin.js'
import type { ExecutionRecorder } from './execution-recorder.js'
import {
  errorResponse,
  jsonResponse,
  type GatewayResponse,
  type RequestNotes,
} from './http-types.js'
import { parseQueryString } from './request/query-string.js'
import { flowErrorResponse } from './serve-deployment.js'

export interface TriggerSurface {
  readonly runtime: () => RuntimeConfiguration | undefined
  readonly queue: JobQueue
  /** This process's workers, when it runs some. */
  readonly pool: WorkerPool | undefined
  readonly runJob: JobRunner
  readonly recorder: ExecutionRecorder
  readonly executions: ExecutionRepository
  readonly maxAttempts: number
  readonly leaseMs: number
  readonly heartbeatMs: number
  readonly workerWaitMs: number
}

const reserved = new Set(['api_key', 'sync', 'worker_group'])
const terminal = new Set(['succeeded', 'failed'])
const challenge = { 'www-authenticate': 'ApiKey header="x-api-key", query="api_key"' }

type Checked<T> = { ok: true; value: T } | { ok: false; response: GatewayResponse }
const refuse = (response: GatewayResponse): { ok: false; response: GatewayResponse } => ({
  ok: false,
  response,
})

const triggerNotes: RequestNotes = Object.freeze({
  surface: 'trigger',
  application: '-',
  stage: '-',
  endpoint: '-',
  route: '-',
})
// One notes object per flow of a loaded configuration, as for business routes (metrics find
// their series by it).
const notesByFlow = new WeakMap<object, RequestNotes>()
function notesOf(flow: object, endpoint: string): RequestNotes {
  let notes = notesByFlow.get(flow)
  if (notes?.endpoint !== endpoint) {
    notes = Object.freeze({ ...triggerNotes, endpoint, route: endpoint })
    notesByFlow.set(flow, notes)
  }
  return notes
}
const executionNotes: RequestNotes = Object.freeze({
  ...triggerNotes,
  endpoint: 'executions',
  route: 'executions',
})

export function triggerPlugin(surface: TriggerSurface) {
  return function register(app: FastifyInstance): void {
    app.route<{ Params: { owner: string; project: string; flow: string } }>({
      method: ['GET', 'POST'],
      url: '/api/v1/trigger/:owner/:project/:flow',
      handler: async (request, reply) => {
        request.notes = triggerNotes
        const response = await trigger(surface, request, reply)
        return sendGatewayResponse(reply, response)
      },
    })
    app.route({
      method: ['PUT', 'PATCH', 'DELETE'],
      url: '/api/v1/trigger/:owner/:project/:flow',
      handler: (_request, reply) =>
        sendGatewayResponse(
          reply,
          errorResponse(
            405,
            'METHOD_NOT_ALLOWED',
            'The trigger endpoint accepts GET and POST',
            {},
            { allow: 'GET, POST' },
          ),
        ),
    })
    app.get<{ Params: { id: string } }>('/api/v1/executions/:id', async (request, reply) => {
      request.notes = executionNotes
      return sendGatewayResponse(reply, await execution(surface, request))
    })
  }
}

async function trigger(
  surface: TriggerSurface,
  request: FastifyRequest<{ Params: { owner: string; project: string; flow: string } }>,
  reply: FastifyReply,
): Promise<GatewayResponse> {
  const start = begin(surface, request)
  if (!start.ok) return start.response
  const { path, query, runtime, key } = start.value

  const { owner, project: projectName, flow: flowName } = request.params
  const project = runtime.projects.get(`${owner}/${projectName}`)
  if (project === undefined)
    return errorResponse(404, 'NOT_FOUND', `No project ${owner}/${projectName}`)
  const allowed = mayUse(key, project)
  if (!allowed.ok) return allowed.response
  const flow = project.flows.get(flowName)
  if (flow === undefined)
    return errorResponse(404, 'FLOW_NOT_FOUND', `No flow '${flowName}' in project ${project.id}`)
  request.notes = notesOf(flow, `${project.id}/${flowName}`)

  const sync = parseSync(query.sync)
  if (!sync.ok) return sync.response
  const group = query.worker_group ?? 'default'
  if (!project.workerGroups.has(group)) {
    return errorResponse(
      400,
      'WORKER_GROUP_UNKNOWN',
      `No worker group '${group}' in project ${project.id} (known: ${[...project.workerGroups].join(', ')})`,
    )
  }

  let inputs: Record<string, unknown> = {}
  let body: Record<string, unknown>
  if (request.method === 'POST') {
    const payload = request.body ?? {}
    if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
      return errorResponse(400, 'BAD_REQUEST', 'The body must be a JSON object')
    }
    inputs = payload as Record<string, unknown>
    body = inputs
  } else {
    // Seed 4.2: a GET runs on the flow's defaults; extra parameters are $body properties.
    body = {}
    for (const [name, value] of Object.entries(query)) if (!reserved.has(name)) body[name] = value
  }

  const job: Job = {
    id: uuidv7(),
    requestId: request.id,
    projectId: project.id,
    flow: flowName,
    flowVersion: flow.version,
    workerGroup: group,
    maxAttempts: surface.maxAttempts,
    attempts: 0,
    inputs,
    body,
    context: {
      userName: key.user.name,
      authorities: key.user.roles,
      method: request.method,
      path,
    },
    queuedAt: new Date(),
  }
  request.executionId = job.id
  void reply.header('x-execution-id', job.id)

  if (!sync.value) {
    await surface.queue.enqueue(job)
    if (surface.pool?.serves(group)) surface.pool.nudge()
    return jsonResponse(
      202,
      { executionId: job.id, status: 'queued' },
      { location: `/api/v1/executions/${job.id}` },
    )
  }
  return runSynchronously(surface, job, flow.compiled.limits.timeoutMs)
}

/** Runs here when a local worker of the group has room; else through the queue, waiting. */
async function runSynchronously(
  surface: TriggerSurface,
  job: Job,
  timeoutMs: number,
): Promise<GatewayResponse> {
  const { pool } = surface
  if (pool?.serves(job.workerGroup)) {
    const outcome = await pool.runDirect(async () => {
      const started = new Date()
      const result = await surface.runJob(job)
      surface.recorder.record(recordOf(job, started, result))
      return result
    })
    if (outcome !== undefined)
      return syncResponse(
        outcome.status === 'succeeded'
          ? { status: 'succeeded', result: outcome.result }
          : { status: 'failed', error: outcome.error },
      )
  }
  if (!(await waitForLiveWorker(surface, job.workerGroup))) {
    return errorResponse(
      503,
      'NO_LIVE_WORKER',
      `No live worker serves worker group '${job.workerGroup}'; start one with: flowgate worker --groups ${job.workerGroup}`,
    )
  }
  await surface.queue.enqueue(job)
  pool?.nudge()
  const record = await waitForTerminal(surface, job.id, timeoutMs + surface.leaseMs + 5_000)
  if (record === undefined || !terminal.has(record.status)) {
    return errorResponse(
      504,
      'SYNC_WAIT_TIMEOUT',
      'The run did not finish in time; poll its execution',
      { details: { executionId: job.id } },
    )
  }
  return syncResponse(
    record.status === 'succeeded'
      ? { status: 'succeeded', result: record.result }
      : { status: 'failed', error: record.error },
  )
}

function syncResponse(
  outcome: { status: 'succeeded'; result: unknown } | { status: 'failed'; error: unknown },
): GatewayResponse {
  if (outcome.status === 'succeeded') return jsonResponse(200, { result: outcome.result ?? null })
  const error = (outcome.error ?? {
    code: 'INTERNAL',
    message: 'The run failed',
    flow: '',
  }) as Parameters<typeof flowErrorResponse>[0]
  return flowErrorResponse(error, 500)
}

async function execution(
  surface: TriggerSurface,
  request: FastifyRequest<{ Params: { id: string } }>,
): Promise<GatewayResponse> {
  const start = begin(surface, request)
  if (!start.ok) return start.response
  const { query, runtime, key } = start.value
  let waitSeconds = 0
  if (query.wait !== undefined) {
    waitSeconds = Number(query.wait)
    if (!/^\d+(\.\d+)?$/.test(query.wait) || waitSeconds > 60) {
      return errorResponse(400, 'BAD_REQUEST', "'wait' must be a number of seconds from 0 to 60")
    }
  }
  await surface.recorder.flush()
  let record = await surface.executions.get(request.params.id)
  if (record === undefined)
    return errorResponse(404, 'NOT_FOUND', `No execution '${request.params.id}'`)
  const project = runtime.projects.get(record.projectId)
  if (project === undefined)
    return errorResponse(404, 'NOT_FOUND', `No execution '${request.params.id}'`)
  const allowed = mayUse(key, project)
  if (!allowed.ok) return allowed.response
  if (!terminal.has(record.status) && waitSeconds > 0) {
    record = (await waitForTerminal(surface, record.id, waitSeconds * 1000)) ?? record
  }
  return jsonResponse(200, executionStatus(record))
}

export function executionStatus(record: ExecutionRecord) {
  return {
    executionId: record.id,
    status: record.status,
    flow: record.flow,
    project: record.projectId,
    flowVersion: record.flowVersion,
    trigger: record.trigger,
    ...(record.workerGroup !== undefined && { workerGroup: record.workerGroup }),
    ...(record.status === 'succeeded' && { result: record.result ?? null }),
    ...(record.status === 'failed' && {
      error: record.error ?? { code: record.errorCode, message: record.errorMessage },
    }),
    attempts: record.attempts ?? 1,
    maxAttempts: record.maxAttempts ?? 1,
    startedAt: record.startedAt,
    finishedAt: record.finishedAt,
    durationMs: record.durationMs,
  }
}

interface Begun {
  readonly path: string
  readonly query: Record<string, string>
  readonly runtime: RuntimeConfiguration
  readonly key: RuntimeApiKey
}

/** What both endpoints start with: a strict query string, a configuration, a known key. */
function begin(surface: TriggerSurface, request: FastifyRequest): Checked<Begun> {
  const { path, search } = splitUrl(request.raw.url ?? '/')
  const query = parseQueryString(search)
  if (!query.ok) return refuse(errorResponse(400, 'BAD_REQUEST', query.message))
  const runtime = surface.runtime()
  if (runtime === undefined)
    return refuse(errorResponse(503, 'SERVICE_UNAVAILABLE', 'The configuration is not loaded yet'))
  const key = authenticate(runtime, request, query.query)
  if (!key.ok) return key
  return { ok: true, value: { path, query: query.query, runtime, key: key.value } }
}

/** The key of the request: `x-api-key` or `api_key`; 401 when missing or unknown. */
function authenticate(
  runtime: RuntimeConfiguration,
  request: FastifyRequest,
  query: Record<string, string>,
): Checked<RuntimeApiKey> {
  const key = presentedKey(request.headers['x-api-key'], query.api_key)
  if (key === undefined) {
    return refuse(
      errorResponse(
        401,
        'AUTH_REQUIRED',
        'An API key is required (api_key query parameter or x-api-key header)',
        {},
        challenge,
      ),
    )
  }
  const entry = lookupApiKey(runtime.apiKeys, key)
  if (entry === undefined) {
    return refuse(
      errorResponse(401, 'AUTH_INVALID_CREDENTIALS', 'The API key is not valid', {}, challenge),
    )
  }
  return { ok: true, value: entry }
}

/** SPEC 7: the key's user must own the project or hold role admin (in that project). */
function mayUse(key: RuntimeApiKey, project: RuntimeProject): Checked<true> {
  if (
    key.project === project &&
    (key.user.name === project.owner || key.user.roles.includes('admin'))
  )
    return { ok: true, value: true }
  return refuse(
    errorResponse(
      403,
      'FORBIDDEN',
      `This key's user may not use project ${project.id}: it must own it or hold role admin`,
    ),
  )
}

function parseSync(value: string | undefined): Checked<boolean> {
  if (value === undefined || value === 'false' || value === '0') return { ok: true, value: false }
  if (value === 'true' || value === '1') return { ok: true, value: true }
  return refuse(
    errorResponse(400, 'BAD_REQUEST', `'sync' must be true, 1, false or 0, not '${value}'`),
  )
}

async function waitForLiveWorker(surface: TriggerSurface, group: string): Promise<boolean> {
  const deadline = Date.now() + surface.workerWaitMs
  for (;;) {
    const since = new Date(Date.now() - surface.heartbeatMs * 3)
    const live = await surface.queue.liveWorkers(since)
    if (live.some((w) => w.groups.includes(group))) return true
    if (Date.now() >= deadline) return false
    await sleep(Math.min(200, deadline - Date.now()))
  }
}

/** Polls the store (and wakes early when a local worker finishes the job). */
async function waitForTerminal(
  surface: TriggerSurface,
  id: string,
  timeoutMs: number,
): Promise<ExecutionRecord | undefined> {
  const deadline = Date.now() + timeoutMs
  let record: ExecutionRecord | undefined
  for (;;) {
    record = await surface.executions.get(id)
    if (record === undefined || terminal.has(record.status) || Date.now() >= deadline) return record
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, Math.min(100, Math.max(1, deadline - Date.now())))
      const unsubscribe = surface.pool?.onFinished((finished) => {
        if (finished === id) done()
      })
      function done() {
        clearTimeout(timer)
        unsubscribe?.()
        resolve()
      }
    })
  }
}

/** A synchronous run made here: one attempt, its result or whole error kept as a queued one's. */
function recordOf(job: Job, started: Date, outcome: JobOutcome): ExecutionRecord {
  const failed = outcome.status === 'failed'
  return Object.assign(
    finishedExecution({
      id: job.id,
      requestId: job.requestId,
      projectId: job.projectId,
      flow: job.flow,
      flowVersion: job.flowVersion,
      trigger: 'trigger',
      application: null,
      stage: null,
      endpoint: null,
      startedAt: started.getTime(),
      finishedAt: outcome.finishedAt.getTime(),
      durationMs: outcome.durationMs,
      error: failed ? outcome.error : undefined,
    }),
    { workerGroup: job.workerGroup, attempts: 1, maxAttempts: 1 },
    failed ? { error: { ...outcome.error } } : { result: outcome.result },
  )
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
