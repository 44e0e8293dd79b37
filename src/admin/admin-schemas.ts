/**
 * JSON Schemas of the admin routes: they validate requests and feed the OpenAPI document at
 * /admin/v1/openapi.json. Response schemas describe the shapes without restricting them.
 */
const error = {
  type: 'object',
  properties: {
    error: {
      type: 'object',
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        details: { type: 'object', additionalProperties: true },
      },
      required: ['code', 'message'],
      additionalProperties: true,
    },
  },
} as const

const errors = { 400: error, 401: error, 403: error, 404: error, 409: error, 503: error }

const application = {
  type: 'object',
  additionalProperties: true,
  properties: {
    name: { type: 'string' },
    project: { type: 'string' },
    owner: { type: 'string' },
    stages: { type: 'array', items: { type: 'string' } },
    endpoints: { type: 'array', items: { type: 'object', additionalProperties: true } },
    deployments: { type: 'array', items: { type: 'object', additionalProperties: true } },
    authentication: { type: 'array', items: { type: 'object', additionalProperties: true } },
    warnings: {
      type: 'array',
      items: { type: 'string' },
      description: 'Settings warnings (SPEC 3 and 6)',
    },
  },
} as const

const execution = {
  type: 'object',
  additionalProperties: true,
  properties: {
    id: { type: 'string' },
    requestId: { type: 'string' },
    project: { type: 'string' },
    flow: { type: 'string' },
    flowVersion: { type: 'integer' },
    status: { type: 'string', enum: ['queued', 'running', 'succeeded', 'failed'] },
    trigger: { type: 'string' },
    application: { type: ['string', 'null'] },
    stage: { type: ['string', 'null'] },
    endpoint: { type: ['string', 'null'] },
    startedAt: { type: 'string' },
    finishedAt: { type: ['string', 'null'] },
    durationMs: { type: ['number', 'null'] },
    error: { type: ['object', 'null'], additionalProperties: true },
  },
} as const

const list = (items: object) =>
  ({ type: 'object', properties: { items: { type: 'array', items } } }) as const
const security = [{ bearer: [] }]

export const adminSchemas = {
  listApplications: {
    tags: ['admin'],
    summary: 'Applications with their settings and warnings',
    security,
    response: { 200: list(application), ...errors },
  },
  getApplication: {
    tags: ['admin'],
    summary: 'One application: stages, endpoints, deployments, authentication and warnings',
    security,
    params: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    response: { 200: application, ...errors },
  },
  listFlows: {
    tags: ['admin'],
    summary: 'Flows being served (latest versions)',
    security,
    querystring: {
      type: 'object',
      properties: { project: { type: 'string', description: 'owner/project' } },
      additionalProperties: false,
    },
    response: { 200: list({ type: 'object', additionalProperties: true }), ...errors },
  },
  listDeployments: {
    tags: ['admin'],
    summary: 'Deployments of every application',
    security,
    response: { 200: list({ type: 'object', additionalProperties: true }), ...errors },
  },
  listExecutions: {
    tags: ['admin'],
    summary: 'Recent executions, newest first',
    security,
    querystring: {
      type: 'object',
      properties: {
        flow: { type: 'string' },
        requestId: { type: 'string' },
        limit: { type: 'integer', minimum: 1, maximum: 1000, default: 50 },
      },
      additionalProperties: false,
    },
    response: { 200: list(execution), ...errors },
  },
  getExecution: {
    tags: ['admin'],
    summary: 'One execution',
    security,
    params: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    response: { 200: execution, ...errors },
  },
  apply: {
    tags: ['admin'],
    summary: 'Validate and apply a project, all or nothing',
    description:
      'Body: `project` is the content of flowgate.yaml (an object, or YAML text); `flows` is a list of flow documents (objects or YAML text) or an object mapping file names to them. Invalid: 400 VALIDATION_FAILED with `details.diagnostics` (file, line, column, message) and nothing applied.',
    security,
    body: {
      type: 'object',
      required: ['project'],
      additionalProperties: false,
      properties: {
        project: { type: ['object', 'string'], additionalProperties: true },
        flows: { type: ['array', 'object'], additionalProperties: true },
      },
    },
    response: {
      200: {
        type: 'object',
        properties: {
          project: { type: 'string' },
          revision: { type: 'integer' },
          flows: { type: 'array', items: { type: 'object', additionalProperties: true } },
          warnings: { type: 'array', items: { type: 'object', additionalProperties: true } },
        },
      },
      ...errors,
    },
  },
}
