/**
 * The composition root: wiring happens here and nowhere else. `buildServer` takes the
 * configuration, a store and a logger, and returns the Fastify app with the business, admin
 * and system surfaces mounted, plus what the CLI needs to run it (reload, apply, close).
 */
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
} from 'fastify'
import swagger from '@fastify/swagger'
import { createServer } from 'node:http'
import type { Logger } from 'pino'
import cors from '@fastify/cors'
import { adminPlugin } from './admin/admin-plugin.js'
import type { ServerConfig } from './config.js'
import { AppError } from './core/errors.js'
import { uuidv7 } from './core/ids.js'
import { requestLogger } from './logging.js'
import type { FetchLike } from './engine/blocks/block.js'
import { mechanismFactory } from './gateway/auth/mechanisms.js'
import { businessPlugin } from './gateway/business-plugin.js'
import { ExecutionRecorder } from './gateway/execution-recorder.js'
import type { RequestNotes } from './gateway/http-types.js'
import { GatewayMetrics } from './gateway/metrics.js'
import { parseJsonBody } from './gateway/request/json-body.js'
import { redactUrl } from './gateway/request/query-string.js'
import { RouteTable, type MechanismFactory } from './gateway/routing/route-table.js'
import type { GatewayServices } from './gateway/serve-deployment.js'
import { triggerPlugin } from './gateway/trigger-plugin.js'
import { startLeaseRecovery } from './queue/recovery.js'
import { WorkerPool } from './queue/worker-pool.js'
import { createJobRunner } from './services/job-runner.js'
import type { SourceFile } from './project/load-project.js'
import {
  applyProjectDirectory,
  applyProjectSources,
  type ApplyResult,
} from './services/apply-project.js'
import {
  buildRuntimeConfiguration,
  type FlowCache,
  type RuntimeConfiguration,
} from './services/runtime-configuration.js'
import type { Store } from './storage/store.js'

export interface ServerDependencies {
  readonly config: ServerConfig
  readonly store: Store
  readonly logger: Logger
  readonly fetch?: FetchLike
  /** Authentication mechanisms by type (the workflow mechanism plugs in here). */
  readonly mechanisms?: MechanismFactory
}

export interface FlowgateServer {
  readonly app: FastifyInstance
  readonly metrics: GatewayMetrics
  /** Rebuilds the in-memory configuration from the store and swaps it in. */
  reload(): Promise<RuntimeConfiguration>
  applyDirectory(directory: string): Promise<ApplyResult>
  applySources(projectFile: SourceFile, flowFiles: SourceFile[]): Promise<ApplyResult>
  /** Stops accepting, drains in-flight requests, writes pending executions. */
  close(): Promise<void>
}

const requestIdPattern = /^[\w.:@-]{1,200}$/

export async function buildServer(deps: ServerDependencies): Promise<FlowgateServer> {
  const { config, store, logger } = deps
  const metrics = new GatewayMetrics({ processMetrics: true })
  const recorder = new ExecutionRecorder(store.executions, {
    flushIntervalMs: config.executionFlushMs,
    maxBatch: 1000,
    onError: (err, pending) =>
      logger.error({ err, pending }, 'writing execution records failed; will retry'),
  })
  const shutdown = new AbortController()
  const flowCache: FlowCache = new Map()
  let table: RouteTable | undefined
  let applying: Promise<unknown> = Promise.resolve()

  const services: GatewayServices = {
    recorder,
    metrics,
    insecureMappings: config.insecureMappings,
    flowLogger: {
      log: (level, message, fields) => logger[level]({ ...fields, source: 'flow' }, message),
    },
    log: (level, message, fields) => logger[level](fields, message),
    signal: shutdown.signal,
    ...(deps.fetch !== undefined && { fetch: deps.fetch }),
    ...(config.flowTimeoutMs !== undefined && { flowTimeoutMs: config.flowTimeoutMs }),
  }

  const reload = async (): Promise<RuntimeConfiguration> => {
    const runtime = buildRuntimeConfiguration(await store.configuration.load(), flowCache)
    for (const problem of runtime.problems)
      logger.error({ problem }, 'a stored flow cannot be served')
    table = new RouteTable(runtime, deps.mechanisms ?? mechanismFactory(services))
    logger.info(
      { revision: runtime.revision, applications: runtime.applications.size },
      'configuration loaded',
    )
    return runtime
  }

  // Applies are serialized: two at once would race on the snapshot they swap in.
  const serialized = <T>(task: () => Promise<T>): Promise<T> => {
    const next = applying.then(task, task)
    applying = next.catch(() => undefined)
    return next
  }
  const afterApply = async (result: ApplyResult): Promise<ApplyResult> => {
    if (result.kind === 'applied') await reload()
    return result
  }

  // The per-request line has fields we build ourselves (the URL with api_key redacted, no
  // headers), so it skips the redaction pass that guards every other log line.
  const logRequest = requestLogger(logger)

  // Typed as Fastify's base logger so that the instance keeps Fastify's default generics.
  const baseLogger: FastifyBaseLogger = logger
  const app: FastifyInstance = Fastify({
    loggerInstance: baseLogger,
    // One line per request is written by our own onResponse hook (with route and execution id).
    logController: new LogController({ disableRequestLogging: true }),
    // No child logger per request (Fastify's default, about 1 µs each): our lines carry the
    // request id themselves.
    childLoggerFactory: (logger) => logger,
    ajv: { customOptions: { allowUnionTypes: true } },
    bodyLimit: config.bodyLimitBytes,
    // Our own server, for the limits Fastify has no option for: Node checks request and
    // header timeouts only every connectionsCheckingInterval (30 s by default).
    serverFactory: (handler) => {
      const server = createServer(
        {
          requestTimeout: config.requestTimeoutMs,
          headersTimeout: Math.min(config.requestTimeoutMs, 60_000),
          keepAliveTimeout: config.keepAliveTimeoutMs,
          connectionsCheckingInterval: Math.min(1_000, config.requestTimeoutMs),
        },
        handler,
      )
      server.maxConnections = config.maxConnections
      return server
    },
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    genReqId: (req) => {
      const given = req.headers['x-request-id']
      // Ours are UUIDv7, time-ordered like execution ids: the store indexes executions by
      // request id, and random keys would land all over that index (measured: 2.4x the
      // cost of writing a record).
      return typeof given === 'string' && requestIdPattern.test(given) ? given : uuidv7()
    },
    frameworkErrors: (error, _request, reply) => {
      void (reply as FastifyReply)
        .code(400)
        .send({ error: { code: 'BAD_REQUEST', message: error.message } })
    },
  })
  app.decorateRequest('notes', null)
  app.decorateRequest('executionId', null)
  // Response schemas document the admin API (OpenAPI); they need not be compiled into
  // serializers: that would cost every start-up more than it saves the admin API.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data))

  // JSON only; an empty body is {}; nesting depth and prototype keys are checked once.
  app.removeAllContentTypeParsers()
  for (const type of ['application/json', /^application\/[\w.+-]+\+json$/]) {
    app.addContentTypeParser(type, { parseAs: 'string' }, (_request, body, done) => {
      const parsed = parseJsonBody(body as string, config.maxBodyDepth)
      if (parsed.ok) done(null, parsed.value)
      else done(new AppError('BAD_REQUEST', {}, { message: parsed.message }), undefined)
    })
  }

  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id)
    done()
  })
  app.addHook('onResponse', (request, reply, done) => {
    const durationMs = reply.elapsedTime
    const notes = request.notes ?? systemNotes(request.routeOptions.url)
    metrics.request(notes, reply.statusCode, durationMs / 1000)
    logRequest({
      reqId: request.id,
      method: request.method,
      url: redactUrl(request.url),
      route: request.notes === null ? request.routeOptions.url : notes.route,
      status: reply.statusCode,
      durationMs: Math.round(durationMs * 1000) / 1000,
      executionId: request.executionId ?? undefined,
    })
    done()
  })

  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return reply.code(error.status).send({
        error: {
          code: error.code,
          message: error.message,
          ...(Object.keys(error.details).length > 0 && { details: error.details }),
        },
      })
    }
    const mapped = mapFrameworkError(error)
    if (mapped === undefined) {
      request.log.error({ err: error, reqId: request.id }, 'unexpected error')
      return reply.code(500).send({ error: { code: 'INTERNAL', message: 'Internal error' } })
    }
    return reply.code(mapped.status).send({ error: { code: mapped.code, message: mapped.message } })
  })
  app.setNotFoundHandler((_request, reply) => {
    void reply
      .code(404)
      .send({ error: { code: 'NOT_FOUND', message: 'Nothing is deployed at this address' } })
  })

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'flowgate admin API', version: '1' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    hideUntagged: true,
  })

  app.get('/healthz', () => ({ status: 'ok' }))
  app.get('/readyz', async (_request, reply) => {
    const ready = table !== undefined && (await store.ping())
    return reply
      .code(ready ? 200 : 503)
      .send(
        ready ? { status: 'ready', revision: table!.runtime.revision } : { status: 'not ready' },
      )
  })
  app.get('/metrics', async (_request, reply) => {
    return reply
      .header('content-type', metrics.registry.contentType)
      .send(await metrics.registry.metrics())
  })

  await app.register(async (admin) => {
    adminPlugin({
      adminToken: config.adminToken,
      runtime: () => table?.runtime,
      executions: store.executions,
      flushExecutions: () => recorder.flush(),
      apply: (projectFile, flowFiles) =>
        serialized(() => applyProjectSources(store, projectFile, flowFiles).then(afterApply)),
    })(admin)
    admin.get(
      '/admin/v1/openapi.json',
      { schema: { tags: ['admin'], summary: 'This document' } },
      () => admin.swagger(),
    )
    await Promise.resolve()
  })
  // Workers of this process (default group and --worker-groups), and lost-lease recovery.
  const runJob = createJobRunner({
    runtime: () => table?.runtime,
    flowLogger: services.flowLogger,
    signal: shutdown.signal,
    ...(deps.fetch !== undefined && { fetch: deps.fetch }),
    onRun: (flow, outcome, seconds) => metrics.flowRun(flow, 'trigger', outcome, seconds),
  })
  const pool =
    config.workerGroups.length > 0
      ? new WorkerPool(store.queue, {
          groups: config.workerGroups,
          concurrency: config.workerConcurrency,
          leaseMs: config.leaseMs,
          pollMs: 250,
          heartbeatMs: config.heartbeatMs,
          run: runJob,
          onError: (message, err) => logger.warn({ err }, message),
        })
      : undefined
  await pool?.start()
  // Other processes (a cluster's siblings, another gateway on the same store, an admin apply
  // received elsewhere) change the configuration too: follow the store's revision.
  let following = false
  const follow = setInterval(() => {
    if (following || table === undefined) return
    following = true
    store.configuration
      .revision()
      .then(async (revision) => {
        if (table !== undefined && revision !== table.runtime.revision) await serialized(reload)
      })
      .catch((err: unknown) => logger.error({ err }, 'following the configuration revision failed'))
      .finally(() => (following = false))
  }, config.followRevisionMs)
  follow.unref()
  const stopRecovery = startLeaseRecovery(store.queue, config, logger)

  if (config.corsOrigins.length > 0) {
    const origins = config.corsOrigins.includes('*') ? true : [...config.corsOrigins]
    await app.register(cors, {
      // The admin API is never opened to browsers of other origins.
      delegator: (request, callback) =>
        callback(null, {
          origin: request.url?.startsWith('/admin/') ? false : origins,
          exposedHeaders: ['x-request-id', 'x-execution-id', 'location'],
        }),
    })
  }
  triggerPlugin({
    runtime: () => table?.runtime,
    queue: store.queue,
    pool,
    runJob,
    recorder,
    executions: store.executions,
    maxAttempts: config.maxAttempts,
    leaseMs: config.leaseMs,
    heartbeatMs: config.heartbeatMs,
    workerWaitMs: config.workerWaitMs,
  })(app)
  businessPlugin({
    table: () => table,
    services,
    bodyLimitBytes: config.bodyLimitBytes,
    maxBodyDepth: config.maxBodyDepth,
  })(app)

  return {
    app,
    metrics,
    reload,
    applyDirectory: (directory) =>
      serialized(() => applyProjectDirectory(store, directory).then(afterApply)),
    applySources: (projectFile, flowFiles) =>
      serialized(() => applyProjectSources(store, projectFile, flowFiles).then(afterApply)),
    async close() {
      // Keep-alive connections turn idle as their last request finishes; close them as they
      // do, so that draining ends when the last in-flight request is answered. Past the
      // request timeout, whatever is left is cut (its flows are cancelled).
      const sweep = setInterval(() => app.server.closeIdleConnections(), 50)
      const deadline = setTimeout(() => {
        shutdown.abort()
        app.server.closeAllConnections()
      }, config.requestTimeoutMs)
      try {
        await app.close()
      } finally {
        clearInterval(sweep)
        clearTimeout(deadline)
      }
      // Queued runs in progress finish (or are given back to the queue past the timeout).
      await pool?.stop(config.requestTimeoutMs)
      stopRecovery()
      clearInterval(follow)
      shutdown.abort()
      await recorder.close()
    },
  }
}

function mapFrameworkError(
  error: FastifyError,
): { status: number; code: string; message: string } | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return {
        status: 413,
        code: 'PAYLOAD_TOO_LARGE',
        message: 'The request body is larger than allowed',
      }
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return {
        status: 415,
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: 'The request body must be JSON (content-type: application/json)',
      }
    case 'FST_ERR_VALIDATION':
      return { status: 400, code: 'BAD_REQUEST', message: error.message }
  }
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return {
      status: error.statusCode,
      code: error.statusCode === 408 ? 'REQUEST_TIMEOUT' : 'BAD_REQUEST',
      message: error.message,
    }
  }
  return undefined
}

/** Requests no surface routed (health, metrics, 404s): by their Fastify route pattern. */
const systemNotesByUrl = new Map<string, RequestNotes>()
function systemNotes(url: string | undefined): RequestNotes {
  const endpoint = url ?? '-'
  let notes = systemNotesByUrl.get(endpoint)
  if (notes === undefined) {
    notes = Object.freeze({
      surface: 'system',
      application: '-',
      stage: '-',
      endpoint,
      route: endpoint,
    })
    systemNotesByUrl.set(endpoint, notes)
  }
  return notes
}
