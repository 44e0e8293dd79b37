/**
 * The Fastify side of the business surface: one catch-all route (Fastify refuses new routes
 * once it listens, and deployments change at run time), which parses the URL strictly, looks
 * the deployment up in the current route table and hands over to `serveDeployment`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { errorResponse, type GatewayRequest, type GatewayResponse } from './http-types.js'
import { parseQueryString } from './request/query-string.js'
import type { RouteTable } from './routing/route-table.js'
import { serveDeployment, type GatewayServices } from './serve-deployment.js'

export interface BusinessSurface {
  /** The route table of the configuration being served; undefined until the first load. */
  readonly table: () => RouteTable | undefined
  readonly services: GatewayServices
}

/** What the request log and metrics learn about a request once it was routed. */
export interface RequestNotes {
  surface: 'business' | 'trigger' | 'admin' | 'system'
  application: string
  stage: string
  endpoint: string
  executionId: string | undefined
}

declare module 'fastify' {
  interface FastifyRequest {
    notes: RequestNotes | null
  }
}

export function splitUrl(url: string): { path: string; search: string } {
  const q = url.indexOf('?')
  if (q === -1) return { path: url, search: '' }
  const hash = url.indexOf('#', q)
  return { path: url.slice(0, q), search: url.slice(q + 1, hash === -1 ? undefined : hash) }
}

export function sendGatewayResponse(reply: FastifyReply, response: GatewayResponse): FastifyReply {
  reply.code(response.status)
  for (const name in response.headers) reply.header(name, response.headers[name])
  return reply.send(response.body)
}

export function toGatewayRequest(
  request: FastifyRequest,
  path: string,
  query: Record<string, string>,
): GatewayRequest {
  return {
    method: request.method,
    path,
    query,
    body: request.body,
    headers: request.headers,
    requestId: request.id,
  }
}

export function businessPlugin(surface: BusinessSurface) {
  return function register(app: FastifyInstance): void {
    app.route({
      method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'],
      url: '/*',
      handler: async (request, reply) => {
        const table = surface.table()
        if (table === undefined) {
          return sendGatewayResponse(
            reply,
            errorResponse(503, 'SERVICE_UNAVAILABLE', 'The configuration is not loaded yet'),
          )
        }
        const { path, search } = splitUrl(request.raw.url ?? '/')
        const query = parseQueryString(search)
        if (!query.ok)
          return sendGatewayResponse(reply, errorResponse(400, 'BAD_REQUEST', query.message))
        const lookup = table.lookup(request.method, path)
        switch (lookup.kind) {
          case 'not-found':
            return sendGatewayResponse(reply, errorResponse(404, 'NOT_FOUND', lookup.message))
          case 'bad-path':
            return sendGatewayResponse(reply, errorResponse(400, 'BAD_REQUEST', lookup.message))
          case 'method-not-allowed':
            return sendGatewayResponse(
              reply,
              errorResponse(
                405,
                'METHOD_NOT_ALLOWED',
                `This address accepts ${lookup.allow.join(', ')}`,
                {},
                { allow: lookup.allow.join(', ') },
              ),
            )
          case 'matched': {
            const { route } = lookup
            request.notes = {
              surface: 'business',
              application: route.application.document.name,
              stage: route.stage,
              endpoint: route.endpoint.name,
              executionId: undefined,
            }
            const served = await serveDeployment(
              toGatewayRequest(request, path, query.query),
              route,
              lookup.app,
              lookup.params,
              surface.services,
            )
            request.notes.executionId = served.executionId
            if (served.executionId !== undefined) reply.header('x-execution-id', served.executionId)
            return sendGatewayResponse(reply, served.response)
          }
        }
      },
    })
  }
}
