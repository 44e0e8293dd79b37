/**
 * The routing table of the business endpoints: `/<application>/<stage><endpoint path>`.
 * Built once from the runtime configuration (one find-my-way router per application, response
 * mappings compiled, authentication chains assembled) and swapped atomically on each reload.
 * A lookup reads only this immutable structure: no database, no compilation per request.
 */
import FindMyWay from 'find-my-way'
import type { EndpointDocument } from '../../project/project-model.js'
import { parseEndpointPath } from '../../project/endpoint-path.js'
import type {
  RuntimeApplication,
  RuntimeConfiguration,
  RuntimeFlow,
} from '../../services/runtime-configuration.js'
import { authChain, type AuthChain } from '../auth/chain.js'
import type { AuthMechanism } from '../auth/types.js'
import type { RequestNotes } from '../http-types.js'
import { readsBody } from '../request/inputs.js'
import { compileResponse, type CompiledResponse } from '../response/response-mapping.js'

export interface DeploymentRoute {
  readonly application: RuntimeApplication
  readonly stage: string
  readonly endpoint: EndpointDocument
  readonly flow: RuntimeFlow
  readonly errorStatusCode: number | undefined
  readonly response: CompiledResponse | undefined
  /** `shop/prod/create-order`: for logs and metrics. */
  readonly label: string
  /** The request notes of every request it serves. */
  readonly notes: RequestNotes
}

export interface ApplicationRoutes {
  readonly application: RuntimeApplication
  readonly stages: ReadonlySet<string>
  readonly router: FindMyWay.Instance<FindMyWay.HTTPVersion.V1>
  /** Keyed by `deploymentKey(stage, endpoint)`. */
  readonly deployments: ReadonlyMap<string, DeploymentRoute>
  readonly endpoints: ReadonlyMap<string, EndpointDocument>
  readonly auth: AuthChain
  /** An authentication flow reads the JSON body, even of GET requests (seed 2.1). */
  readonly authReadsBody: boolean
}

export type RouteLookup =
  | {
      readonly kind: 'matched'
      readonly route: DeploymentRoute
      readonly params: Record<string, string>
      readonly app: ApplicationRoutes
    }
  | { readonly kind: 'not-found'; readonly message: string }
  | { readonly kind: 'method-not-allowed'; readonly allow: readonly string[] }
  | { readonly kind: 'bad-path'; readonly message: string }

/** Builds the mechanisms of one application, in its listed order (workflow plugs in here). */
export type MechanismFactory = (
  definition: { readonly type: string } & Record<string, unknown>,
  app: ApplicationRoutes,
  runtime: RuntimeConfiguration,
) => AuthMechanism

export const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const

export function deploymentKey(stage: string, endpoint: string): string {
  return `${stage}\u0000${endpoint}`
}

export class RouteTable {
  private readonly applications = new Map<string, ApplicationRoutes>()

  constructor(
    readonly runtime: RuntimeConfiguration,
    mechanismFactory: MechanismFactory,
  ) {
    for (const application of runtime.applications.values()) {
      const routes = buildApplication(application, runtime, mechanismFactory)
      this.applications.set(application.document.name, routes)
    }
  }

  application(name: string): ApplicationRoutes | undefined {
    return this.applications.get(name)
  }

  lookup(method: string, path: string): RouteLookup {
    // `/<application>/<stage><rest>`
    const second = path.indexOf('/', 1)
    if (second === -1) return notFound
    const third = path.indexOf('/', second + 1)
    let appName: string
    let stage: string
    try {
      appName = decodeSegment(path.slice(1, second))
      stage = decodeSegment(third === -1 ? path.slice(second + 1) : path.slice(second + 1, third))
    } catch {
      return badPath
    }
    const app = this.applications.get(appName)
    if (app === undefined || !app.stages.has(stage)) return notFound
    const rest = third === -1 ? '/' : path.slice(third)
    if (rest.includes('%')) {
      try {
        decodeURIComponent(rest)
      } catch {
        return badPath
      }
    }
    const found = app.router.find(
      method === 'HEAD' ? 'GET' : (method as FindMyWay.HTTPMethod),
      rest,
    )
    if (found) {
      const route = app.deployments.get(deploymentKey(stage, found.store as string))
      if (route) return { kind: 'matched', route, params: toParams(found.params), app }
    }
    const allow = methods.filter((m) => {
      const other = app.router.find(m, rest)
      return other !== null && app.deployments.has(deploymentKey(stage, other.store as string))
    })
    if (allow.length > 0 && !allow.includes(method as (typeof methods)[number]))
      return { kind: 'method-not-allowed', allow }
    return notFound
  }
}

const notFound: RouteLookup = { kind: 'not-found', message: 'Nothing is deployed at this address' }
const badPath: RouteLookup = {
  kind: 'bad-path',
  message: 'The URL path has broken percent-encoding',
}

function decodeSegment(segment: string): string {
  return segment.includes('%') ? decodeURIComponent(segment) : segment
}

function toParams(params: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) out[name === '*' ? 'wildcard' : name] = value
  }
  return out
}

/** `/orders/{id}/*` -> find-my-way's `/orders/:id/*` (a literal ':' is written '::'). */
function routerPath(path: string): string {
  const parsed = parseEndpointPath(path)
  if (!parsed.ok) throw new Error(`invalid endpoint path ${path}: ${parsed.reason}`)
  return (
    '/' +
    parsed.segments
      .map((s) =>
        s.kind === 'literal'
          ? s.value.replace(/:/g, '::')
          : s.kind === 'param'
            ? `:${s.name}`
            : '*',
      )
      .join('/')
  )
}

function buildApplication(
  application: RuntimeApplication,
  runtime: RuntimeConfiguration,
  mechanisms: MechanismFactory,
): ApplicationRoutes {
  const doc = application.document
  const router = FindMyWay({
    ignoreTrailingSlash: false,
    ignoreDuplicateSlashes: false,
    caseSensitive: true,
    maxParamLength: 1000,
  })
  const endpoints = new Map((doc.endpoints ?? []).map((e) => [e.name, e]))
  for (const endpoint of endpoints.values()) {
    router.on(endpoint.method, routerPath(endpoint.path), () => undefined, endpoint.name)
  }
  const deployments = new Map<string, DeploymentRoute>()
  for (const d of doc.deployments ?? []) {
    const endpoint = endpoints.get(d.endpoint)
    const flow = application.project.flows.get(d.flow)
    if (endpoint === undefined || flow === undefined) continue
    const label = `${doc.name}/${d.stage}/${d.endpoint}`
    deployments.set(deploymentKey(d.stage, d.endpoint), {
      application,
      stage: d.stage,
      endpoint,
      flow,
      errorStatusCode: d.errorStatusCode,
      response: compileResponse(d.response),
      label,
      notes: Object.freeze({
        surface: 'business',
        application: doc.name,
        stage: d.stage,
        endpoint: d.endpoint,
        route: label,
      }),
    })
  }
  const routes: { -readonly [K in keyof ApplicationRoutes]: ApplicationRoutes[K] } = {
    application,
    stages: new Set(doc.stages),
    router,
    deployments,
    endpoints,
    auth: authChain([]),
    authReadsBody: (doc.authentication ?? []).some(
      (a) => a.type === 'workflow' && readsBody(endpoints.get(a.endpoint)?.method ?? 'GET'),
    ),
  }
  routes.auth = authChain(
    (doc.authentication ?? []).map((definition) => mechanisms(definition, routes, runtime)),
  )
  return routes
}
