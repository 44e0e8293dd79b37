/**
 * `http`: calls an HTTP service and stores `{status, headers, body}` in `into`. The body is
 * parsed as JSON when the response says it is JSON, kept as text for text types, and given as
 * base64 text otherwise. A non-2xx status is not an error (look at `status`); a network
 * failure is HTTP_FAILED and a timeout HTTP_TIMEOUT. The timeout is the step's `timeoutMs`
 * (default 10 s) or what is left of the run's time limit, whichever is shorter.
 *
 * @example
 * - http:
 *     method: POST
 *     url: "{% 'https://auth.example.com/introspect' %}"
 *     headers: { authorization: "{% 'Bearer ' & $token %}" }
 *     body: { token: "{% $token %}" }
 *     timeoutMs: 2000
 *     into: answer
 */
import { isPlainObject } from '../convert.js'
import type { HttpStep } from '../definition.js'
import { FlowFailure } from '../flow-error.js'
import type { Block, Frame, Signal } from './block.js'

/** Responses larger than this are refused: a flow keeps its values in memory. */
const maxResponseBytes = 10 * 1024 * 1024
const defaultTimeoutMs = 10_000
const methodsWithoutBody = new Set(['GET', 'HEAD'])

export const httpBlock: Block<'http'> = {
  compile(document, c) {
    const body = document.http as Record<string, unknown>
    const at = [...c.path, 'http']
    const optional = (key: string) =>
      body[key] === undefined ? undefined : c.template(body[key], [...at, key])
    return {
      kind: 'http',
      path: c.pathText,
      id: c.id,
      method: c.template(body.method ?? 'GET', [...at, 'method']),
      url: c.template(body.url, [...at, 'url']),
      headers: optional('headers'),
      query: optional('query'),
      body: optional('body'),
      timeoutMs: typeof body.timeoutMs === 'number' ? body.timeoutMs : defaultTimeoutMs,
      into: body.into === undefined ? undefined : c.target(body.into, [...at, 'into']),
    }
  },

  async execute(step, frame): Promise<Signal> {
    const request = await buildRequest(step, frame)
    const response = await send(step, frame, request)
    if (step.into !== undefined) frame.assign(step.into, response)
    return 'next'
  },
}

interface OutgoingRequest {
  url: string
  init: RequestInit
}

async function buildRequest(step: HttpStep, frame: Frame): Promise<OutgoingRequest> {
  const method = String(await step.method.evaluate(frame.scope)).toUpperCase()
  if (!/^[A-Z]+$/.test(method))
    throw new FlowFailure('HTTP_FAILED', `Invalid HTTP method '${method}'`)
  const urlValue = await step.url.evaluate(frame.scope)
  let url: URL
  try {
    url = new URL(String(urlValue))
  } catch {
    throw new FlowFailure('HTTP_FAILED', `Invalid URL '${String(urlValue)}'`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FlowFailure(
      'HTTP_FAILED',
      `Only http and https URLs can be called, not '${url.protocol}'`,
    )
  }
  const query = step.query ? await step.query.evaluate(frame.scope) : undefined
  if (isPlainObject(query)) {
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined && value !== null) url.searchParams.append(key, textOf(value))
    }
  }
  const headers = new Headers()
  const headerValues = step.headers ? await step.headers.evaluate(frame.scope) : undefined
  if (headerValues !== undefined && !isPlainObject(headerValues)) {
    throw new FlowFailure('HTTP_FAILED', 'The headers of an http step must be an object')
  }
  try {
    for (const [name, value] of Object.entries(headerValues ?? {})) {
      if (value !== undefined && value !== null) headers.set(name, textOf(value))
    }
  } catch (error) {
    throw new FlowFailure('HTTP_FAILED', `Invalid header: ${(error as Error).message}`)
  }
  const bodyValue = step.body ? await step.body.evaluate(frame.scope) : undefined
  let body: string | undefined
  if (bodyValue !== undefined && bodyValue !== null) {
    if (methodsWithoutBody.has(method)) {
      throw new FlowFailure('HTTP_FAILED', `A ${method} request cannot have a body`)
    }
    if (typeof bodyValue === 'string') {
      body = bodyValue
      if (!headers.has('content-type')) headers.set('content-type', 'text/plain; charset=utf-8')
    } else {
      body = JSON.stringify(bodyValue)
      if (!headers.has('content-type')) headers.set('content-type', 'application/json')
    }
  }
  return { url: url.href, init: { method, headers, ...(body !== undefined && { body }) } }
}

async function send(step: HttpStep, frame: Frame, request: OutgoingRequest) {
  const { state } = frame
  const remaining = state.deadline - state.now()
  if (remaining <= 0) {
    throw new FlowFailure(
      'FLOW_TIMEOUT',
      `The flow ran past its time limit of ${state.timeoutMs} ms`,
    )
  }
  const stepTimeout = AbortSignal.timeout(Math.min(step.timeoutMs, remaining))
  const signal = state.signal ? AbortSignal.any([stepTimeout, state.signal]) : stepTimeout
  try {
    const response = await state.fetch(request.url, { ...request.init, signal, redirect: 'follow' })
    const body = await readBody(response)
    return { status: response.status, headers: Object.fromEntries(response.headers), body }
  } catch (error) {
    if (error instanceof FlowFailure) throw error
    if (state.signal?.aborted) throw new FlowFailure('FLOW_CANCELLED', 'The flow run was cancelled')
    if (stepTimeout.aborted) {
      if (step.timeoutMs < remaining) {
        throw new FlowFailure(
          'HTTP_TIMEOUT',
          `${request.init.method} ${request.url} timed out after ${step.timeoutMs} ms`,
          {
            timeoutMs: step.timeoutMs,
          },
        )
      }
      throw new FlowFailure(
        'FLOW_TIMEOUT',
        `The flow ran past its time limit of ${state.timeoutMs} ms`,
      )
    }
    const cause = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message
    throw new FlowFailure('HTTP_FAILED', `${request.init.method} ${request.url} failed: ${cause}`)
  }
}

async function readBody(response: Response): Promise<unknown> {
  const declared = Number(response.headers.get('content-length') ?? '0')
  if (declared > maxResponseBytes) throw tooLarge()
  const chunks: Uint8Array[] = []
  let size = 0
  if (response.body) {
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength
      if (size > maxResponseBytes) throw tooLarge()
      chunks.push(chunk)
    }
  }
  if (size === 0) return null
  const bytes = Buffer.concat(chunks)
  const type = (response.headers.get('content-type') ?? '').toLowerCase()
  if (/[/+]json\b/.test(type)) {
    const text = bytes.toString('utf8')
    try {
      return JSON.parse(text) as unknown
    } catch {
      return text
    }
  }
  if (
    type === '' ||
    type.startsWith('text/') ||
    /xml|javascript|x-www-form-urlencoded/.test(type)
  ) {
    return bytes.toString('utf8')
  }
  return bytes.toString('base64')
}

function tooLarge(): FlowFailure {
  return new FlowFailure('HTTP_FAILED', `The response is larger than ${maxResponseBytes} bytes`, {
    limit: maxResponseBytes,
  })
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return JSON.stringify(value) ?? ''
}
