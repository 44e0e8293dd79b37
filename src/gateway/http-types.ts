/**
 * The gateway's own view of a request and a response: plain data, so that routing,
 * authentication, input mapping and response mapping can be tested without a server.
 */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface GatewayRequest {
  readonly method: string
  /** URL path without the query string, still percent-encoded as received. */
  readonly path: string
  /** Parsed strictly: decoded, no repeated keys (see query-string.ts). */
  readonly query: Readonly<Record<string, string>>
  /** The parsed JSON body (an object, or undefined when there was none). */
  readonly body: unknown
  /** Lower-case names, as Node gives them. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>
  readonly requestId: string
}

/**
 * What the request log and metrics learn about a request once it was routed. For business
 * endpoints one object per deployment, made with the route table: nothing per request.
 */
export interface RequestNotes {
  readonly surface: 'business' | 'trigger' | 'admin' | 'system'
  readonly application: string
  readonly stage: string
  readonly endpoint: string
  /** The request line's `route`: `shop/prod/create-order`, `alice/demo/report`, ... */
  readonly route: string
}

export interface GatewayResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  /** Already serialized. */
  readonly body: string | Buffer | undefined
}

export function jsonResponse(
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): GatewayResponse {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(value),
  }
}

export function errorResponse(
  status: number,
  code: string,
  message: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): GatewayResponse {
  return jsonResponse(status, { error: { code, message, ...extra } }, headers)
}
