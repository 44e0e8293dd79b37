/**
 * Response mapping (SPEC 5, seed 2.4): from a completed run to an HTTP response.
 *
 * Sources, strongest first, field by field: the deployment's Custom Response Configuration
 * (compiled once per deployment; each field a literal or an expression over the flow's final
 * variables), then the flow's output variables responseBody, responseFormat,
 * responseContentType, responseHeaders, responseStatusCode. A configured field whose
 * expression yields nothing counts as not configured. Headers and content type apply only
 * when ENABLE_INSECURE_MAPPINGS=1. Anything invalid is a flow error (RESPONSE_MAPPING_INVALID).
 */
import { defaultExpressionLimits } from '../../engine/expressions/guards.js'
import { compileTemplate, type Template } from '../../engine/expressions/template.js'
import { FlowFailure } from '../../engine/flow-error.js'
import type { ResponseDocument } from '../../project/project-model.js'
import type { GatewayResponse } from '../http-types.js'

export interface CompiledResponse {
  readonly statusCode?: Template
  readonly body?: Template
  readonly format?: Template
  readonly contentType?: Template
  readonly headers?: Template
}

const fields = ['statusCode', 'body', 'format', 'contentType', 'headers'] as const

/** Compiles a deployment's mapping; its expressions were checked when the project was applied. */
export function compileResponse(
  document: ResponseDocument | undefined,
): CompiledResponse | undefined {
  if (document === undefined) return undefined
  const compiler = { timeoutMs: 5_000, limits: defaultExpressionLimits, problems: [] }
  const response: Record<string, Template> = {}
  for (const field of fields) {
    if (document[field] !== undefined)
      response[field] = compileTemplate(document[field], [field], compiler)
  }
  return response
}

/** The output variable that maps each field when nothing is configured for it. */
const implicitName = {
  statusCode: 'responseStatusCode',
  body: 'responseBody',
  format: 'responseFormat',
  contentType: 'responseContentType',
  headers: 'responseHeaders',
} as const satisfies Record<(typeof fields)[number], string>
const implicitNames = Object.values(implicitName)
const forbiddenHeaders = new Set([
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'upgrade',
])
const headerName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
const headerValue = /^[\t\x20-\x7e\x80-\xff]*$/
const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

export interface MappingInput {
  /** Final values of every declared variable (the scope of configured expressions). */
  readonly variables: Record<string, unknown>
  /** Present outputs. */
  readonly outputs: Record<string, unknown>
  readonly context: Readonly<Record<string, unknown>>
}

function invalid(message: string): FlowFailure {
  return new FlowFailure('RESPONSE_MAPPING_INVALID', message)
}

export interface MappingOptions {
  readonly insecureMappings: boolean
  /** Status when none is mapped (200; 401 for a refusing authentication flow). */
  readonly defaultStatus?: number
  /** Body when none is mapped (the outputs, response variables left out, by default). */
  readonly defaultBody?: unknown
}

/** The mapped value of each field, before checks: configured first, then the implicit output. */
interface MappedFields {
  statusCode: unknown
  body: unknown
  format: unknown
  contentType: unknown
  headers: unknown
}

/**
 * Maps a completed run to a response. Without a configured mapping nothing can wait, so the
 * response is returned as is, without a promise (the common case, on every request); a
 * configured expression may wait, and then the answer is a promise.
 */
export function mapResponse(
  configured: CompiledResponse | undefined,
  run: MappingInput,
  options: MappingOptions,
): GatewayResponse | Promise<GatewayResponse> {
  const { outputs } = run
  if (configured === undefined) {
    return assembleResponse(
      {
        statusCode: outputs[implicitName.statusCode],
        body: outputs[implicitName.body],
        format: outputs[implicitName.format],
        contentType: outputs[implicitName.contentType],
        headers: outputs[implicitName.headers],
      },
      outputs,
      options,
    )
  }
  return mapConfigured(configured, run, options.insecureMappings).then((fields) =>
    assembleResponse(fields, outputs, options),
  )
}

async function mapConfigured(
  configured: CompiledResponse,
  run: MappingInput,
  insecureMappings: boolean,
): Promise<MappedFields> {
  const scope = Object.assign({}, run.variables, {
    context: run.variables.context ?? run.context,
  })
  const pick = async (field: (typeof fields)[number]): Promise<unknown> => {
    const template = configured[field]
    if (template !== undefined) {
      const value = await template.evaluate(scope)
      if (value !== undefined) return value
    }
    return run.outputs[implicitName[field]]
  }
  // In this order, and headers and content type only when they may apply: an expression that
  // fails then is a failed mapping.
  const statusCode = await pick('statusCode')
  const body = await pick('body')
  const format = await pick('format')
  if (!insecureMappings)
    return { statusCode, body, format, headers: undefined, contentType: undefined }
  const headers = await pick('headers')
  const contentType = await pick('contentType')
  return { statusCode, body, format, headers, contentType }
}

function assembleResponse(
  mapped: MappedFields,
  outputs: Record<string, unknown>,
  options: MappingOptions,
): GatewayResponse {
  const statusValue = mapped.statusCode
  let status = options.defaultStatus ?? 200
  if (statusValue !== undefined && statusValue !== null) {
    if (
      typeof statusValue !== 'number' ||
      !Number.isInteger(statusValue) ||
      statusValue < 200 ||
      statusValue > 599
    ) {
      throw invalid(
        `The response status must be an integer from 200 to 599, not ${JSON.stringify(statusValue)}`,
      )
    }
    status = statusValue
  }

  let body = mapped.body
  if (body === undefined) body = options.defaultBody ?? withoutResponseVariables(outputs)

  const formatValue = mapped.format ?? 'JSON'
  const headers: Record<string, string> = {}
  let payload: string | Buffer
  switch (formatValue) {
    case 'JSON':
      headers['content-type'] = 'application/json; charset=utf-8'
      payload = JSON.stringify(body) ?? 'null'
      break
    case 'STRING':
      headers['content-type'] = 'text/plain; charset=utf-8'
      payload = typeof body === 'string' ? body : (JSON.stringify(body) ?? '')
      break
    case 'BINARY':
      if (typeof body !== 'string' || !base64.test(body.replace(/\s+/g, ''))) {
        throw invalid('A BINARY response body must be base64 text')
      }
      headers['content-type'] = 'application/octet-stream'
      payload = Buffer.from(body, 'base64')
      break
    default:
      throw invalid(
        `The response format must be JSON, STRING or BINARY, not ${JSON.stringify(formatValue)}`,
      )
  }

  if (options.insecureMappings) {
    const mappedHeaders = mapped.headers
    if (mappedHeaders !== undefined && mappedHeaders !== null) {
      if (typeof mappedHeaders !== 'object' || Array.isArray(mappedHeaders))
        throw invalid('The response headers must be an object')
      for (const [name, raw] of Object.entries(mappedHeaders as Record<string, unknown>)) {
        if (raw === undefined || raw === null) continue
        setHeader(headers, name, typeof raw === 'string' ? raw : (JSON.stringify(raw) ?? ''))
      }
    }
    const contentType = mapped.contentType
    if (contentType !== undefined && contentType !== null) {
      if (typeof contentType !== 'string') throw invalid('The response content type must be text')
      setHeader(headers, 'content-type', contentType)
    }
  }
  return { status, headers, body: status === 204 || status === 304 ? undefined : payload }
}

function setHeader(headers: Record<string, string>, name: string, value: string): void {
  if (!headerName.test(name)) throw invalid(`Invalid response header name ${JSON.stringify(name)}`)
  const lower = name.toLowerCase()
  if (forbiddenHeaders.has(lower)) throw invalid(`The response header '${lower}' cannot be mapped`)
  if (!headerValue.test(value))
    throw invalid(`The response header '${lower}' has a value with control characters`)
  headers[lower] = value
}

function withoutResponseVariables(outputs: Record<string, unknown>): Record<string, unknown> {
  let body: Record<string, unknown> | undefined
  for (const name of implicitNames) {
    if (name in outputs) {
      body ??= { ...outputs }
      delete body[name]
    }
  }
  return body ?? outputs
}
