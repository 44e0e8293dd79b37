/**
 * The Fastify side of the business surface: one catch-all route (Fastify refuses new routes
 * once it listens, and deployments change at run time), which parses the URL strictly, looks
 * the deployment up in the current route table and hands over to `serveDeployment`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import {
  errorResponse,
  type GatewayRequest,
  type GatewayResponse,
  type RequestNotes,
} from './http-types.js'
import { parseJsonBody } from './request/json-body.js'
import { parseQueryString } from './request/query-string.js'
import type { RouteTable } from './routing/route-table.js'
import { serveDeployment, type GatewayServices } from './serve-deployment.js'

export interface BusinessSurface {
  /** The route table of the configuration being served; undefined until the first load. */
  readonly table: () => RouteTable | undefined
  readonly services: GatewayServices
  readonly bodyLimitBytes: number
  readonly maxBodyDepth: number
}

declare module 'fastify' {
  interface FastifyRequest {
    notes: RequestNotes | null
    /** The execution a request started, for the request line. */
    executionId: string | null
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

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length']
  return (
    (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined
  )
}

/**
 * Fastify does not parse the body of a GET (or HEAD) request. When a POST authentication
 * endpoint guards a GET business endpoint, its inputs still come from the JSON body (seed
 * 2.1), so that body is read here, with the same limits and checks as any other.
 */
async function readUnparsedBody(
  request: FastifyRequest,
  limit: number,
  maxDepth: number,
): Promise<{ kind: 'read'; value: unknown } | { kind: 'refused'; response: GatewayResponse }> {
  const type = request.headers['content-type'] ?? ''
  if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type)) {
    return {
      kind: 'refused',
      response: errorResponse(
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        'The request body must be JSON (content-type: application/json)',
      ),
    }
  }
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request.raw as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > limit)
      return {
        kind: 'refused',
        response: errorResponse(
          413,
          'PAYLOAD_TOO_LARGE',
          'The request body is larger than allowed',
        ),
      }
    chunks.push(chunk)
  }
  const parsed = parseJsonBody(Buffer.concat(chunks).toString('utf8'), maxDepth)
  if (!parsed.ok)
    return { kind: 'refused', response: errorResponse(400, 'BAD_REQUEST', parsed.message) }
  return { kind: 'read', value: parsed.value }
}

export function businessPlugin(surface: BusinessSurface) {
  return function register(app: FastifyInstance): void {
    app.route({
      // OPTIONS stays with CORS (preflight) or the 404 handler.
      method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'],
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
            request.notes = route.notes
            let gatewayRequest = toGatewayRequest(request, path, query.query)
            if (
              lookup.app.authReadsBody &&
              (request.body === undefined || request.body === null) &&
              hasBody(request)
            ) {
              const body = await readUnparsedBody(
                request,
                surface.bodyLimitBytes,
                surface.maxBodyDepth,
              )
              if (body.kind === 'refused') return sendGatewayResponse(reply, body.response)
              gatewayRequest = { ...gatewayRequest, body: body.value }
            }
            const served = await serveDeployment(
              gatewayRequest,
              route,
              lookup.app,
              lookup.params,
              surface.services,
            )
            if (served.executionId !== undefined) {
              request.executionId = served.executionId
              reply.header('x-execution-id', served.executionId)
            }
            return sendGatewayResponse(reply, served.response)
          }
        }
      },
    })
  }
}
