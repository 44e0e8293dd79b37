/** The shape of `flowgate.yaml` as users write it (checked by `schemas/project.schema.json`). */

export const httpMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const
export type HttpMethod = (typeof httpMethods)[number]

export interface UserDocument {
  name: string
  roles?: string[]
}

export interface ApiKeyDocument {
  name: string
  user: string
  sha256: string
}

export interface EndpointDocument {
  name: string
  method: HttpMethod
  path: string
}

export interface ResponseDocument {
  statusCode?: unknown
  body?: unknown
  format?: unknown
  contentType?: unknown
  headers?: unknown
}

export interface DeploymentDocument {
  stage: string
  endpoint: string
  flow: string
  errorStatusCode?: number
  response?: ResponseDocument
}

export type AuthenticationDocument =
  { type: 'apiKey' } | { type: 'workflow'; stage: string; endpoint: string; timeoutMs?: number }

export interface ApplicationDocument {
  name: string
  owner: string
  stages: string[]
  endpoints?: EndpointDocument[]
  deployments?: DeploymentDocument[]
  authentication?: AuthenticationDocument[]
}

export interface ProjectDocument {
  owner: string
  project: string
  users?: UserDocument[]
  apiKeys?: ApiKeyDocument[]
  workerGroups?: string[]
  applications?: ApplicationDocument[]
}

/** Application names that would shadow flowgate's own URLs. */
export const reservedApplicationNames: ReadonlySet<string> = new Set([
  'api',
  'admin',
  'console',
  'healthz',
  'readyz',
  'metrics',
])
