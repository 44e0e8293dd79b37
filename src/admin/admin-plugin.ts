/**
 * The admin REST API under /admin/v1: read applications (with warnings), flows, deployments
 * and executions; apply a project document. Bearer `FLOWGATE_ADMIN_TOKEN`; without it the API
 * is closed. Routes only translate HTTP to services and back.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '../core/errors.js'
import type { SourceFile } from '../project/load-project.js'
import {
  applicationResource,
  deploymentResources,
  executionResource,
  flowResources,
} from '../services/admin-views.js'
import type { ApplyResult } from '../services/apply-project.js'
import type { RuntimeConfiguration } from '../services/runtime-configuration.js'
import type { ExecutionRepository } from '../storage/store.js'
import { adminSchemas } from './admin-schemas.js'

export interface AdminDependencies {
  readonly adminToken: string | undefined
  readonly runtime: () => RuntimeConfiguration | undefined
  readonly executions: ExecutionRepository
  /** Writes buffered execution records, so that a read sees every finished request. */
  readonly flushExecutions: () => Promise<void>
  /** Validates, stores and starts serving a project; resolves once it is served. */
  readonly apply: (projectFile: SourceFile, flowFiles: SourceFile[]) => Promise<ApplyResult>
}

interface ApplyBody {
  project: unknown
  flows?: unknown
}

export function adminPlugin(deps: AdminDependencies) {
  return function register(app: FastifyInstance): void {
    const expected =
      deps.adminToken === undefined
        ? undefined
        : createHash('sha256').update(deps.adminToken).digest()

    app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      const endpoint = request.routeOptions.url ?? '-'
      request.notes = { surface: 'admin', application: '-', stage: '-', endpoint, route: endpoint }
      if (request.routeOptions.url === '/admin/v1/openapi.json') return
      if (expected === undefined) throw new AppError('ADMIN_DISABLED')
      const header = request.headers.authorization ?? ''
      const match = /^Bearer\s+(\S+)$/i.exec(header)
      const given = match ? createHash('sha256').update(match[1]!).digest() : undefined
      if (given === undefined || !timingSafeEqual(given, expected)) {
        void reply.header('www-authenticate', 'Bearer realm="flowgate-admin"')
        throw new AppError(
          'AUTH_INVALID_CREDENTIALS',
          {},
          {
            message:
              'A valid admin token is required (Authorization: Bearer <FLOWGATE_ADMIN_TOKEN>)',
          },
        )
      }
    })

    const runtime = () => {
      const current = deps.runtime()
      if (current === undefined) throw new AppError('SERVICE_UNAVAILABLE')
      return current
    }

    app.get('/admin/v1/applications', { schema: adminSchemas.listApplications }, () => ({
      items: [...runtime().applications.values()].map(applicationResource),
    }))

    app.get<{ Params: { name: string } }>(
      '/admin/v1/applications/:name',
      { schema: adminSchemas.getApplication },
      (request) => {
        const application = runtime().applications.get(request.params.name)
        if (application === undefined)
          throw new AppError(
            'NOT_FOUND',
            { application: request.params.name },
            { message: `No application named '${request.params.name}'` },
          )
        return applicationResource(application)
      },
    )

    app.get<{ Querystring: { project?: string } }>(
      '/admin/v1/flows',
      { schema: adminSchemas.listFlows },
      (request) => ({
        items: flowResources(runtime()).filter(
          (f) => request.query.project === undefined || f.project === request.query.project,
        ),
      }),
    )

    app.get('/admin/v1/deployments', { schema: adminSchemas.listDeployments }, () => ({
      items: deploymentResources(runtime()),
    }))

    app.get<{ Querystring: { flow?: string; limit?: number; requestId?: string } }>(
      '/admin/v1/executions',
      { schema: adminSchemas.listExecutions },
      async (request) => {
        const { flow, limit, requestId } = request.query
        await deps.flushExecutions()
        const records = await deps.executions.list({
          ...(flow !== undefined && { flow }),
          ...(requestId !== undefined && { requestId }),
          limit: limit ?? 50,
        })
        return { items: records.map(executionResource) }
      },
    )

    app.get<{ Params: { id: string } }>(
      '/admin/v1/executions/:id',
      { schema: adminSchemas.getExecution },
      async (request) => {
        const record = await deps.executions.get(request.params.id)
        if (record === undefined)
          throw new AppError(
            'NOT_FOUND',
            { execution: request.params.id },
            { message: `No execution '${request.params.id}'` },
          )
        return executionResource(record)
      },
    )

    app.post<{ Body: ApplyBody }>(
      '/admin/v1/apply',
      { schema: adminSchemas.apply, bodyLimit: 16 * 1024 * 1024 },
      async (request, reply) => {
        const { projectFile, flowFiles } = toSourceFiles(request.body)
        const result = await deps.apply(projectFile, flowFiles)
        if (result.kind === 'invalid') {
          const errors = result.diagnostics.filter((d) => d.severity === 'error').length
          throw new AppError(
            'VALIDATION_FAILED',
            { diagnostics: result.diagnostics },
            {
              message: `The project is invalid: ${errors} error${errors === 1 ? '' : 's'}; nothing was applied`,
            },
          )
        }
        void reply.code(200)
        return {
          project: `${result.project.owner}/${result.project.name}`,
          revision: result.outcome.revision,
          flows: result.outcome.flows,
          warnings: result.warnings,
        }
      },
    )
  }
}

/**
 * An apply body: `project` is the flowgate.yaml content (an object, or YAML/JSON text);
 * `flows` is a list of flow documents (objects or text), or an object mapping file names to
 * them. Objects are written as JSON text so that diagnostics still carry lines and columns.
 */
export function toSourceFiles(body: ApplyBody): {
  projectFile: SourceFile
  flowFiles: SourceFile[]
} {
  const text = (value: unknown) =>
    typeof value === 'string' ? value : JSON.stringify(value, null, 2)
  const projectFile: SourceFile = {
    file: typeof body.project === 'string' ? 'flowgate.yaml' : 'flowgate.json',
    text: text(body.project),
  }
  const flowFiles: SourceFile[] = []
  if (Array.isArray(body.flows)) {
    body.flows.forEach((flow: unknown, index) => {
      const name = flowName(flow) ?? `flow-${index}`
      flowFiles.push({
        file: `flows/${name}.flow.${typeof flow === 'string' ? 'yaml' : 'json'}`,
        text: text(flow),
      })
    })
  } else if (body.flows !== null && typeof body.flows === 'object') {
    for (const [file, flow] of Object.entries(body.flows)) {
      flowFiles.push({ file: file.includes('/') ? file : `flows/${file}`, text: text(flow) })
    }
  }
  return { projectFile, flowFiles }
}

function flowName(flow: unknown): string | undefined {
  if (typeof flow === 'string') return /^name:\s*["']?([A-Za-z0-9][A-Za-z0-9_.-]*)/m.exec(flow)?.[1]
  if (flow !== null && typeof flow === 'object') {
    const name = (flow as { name?: unknown }).name
    return typeof name === 'string' && /^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(name) ? name : undefined
  }
  return undefined
}
