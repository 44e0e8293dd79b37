/**
 * Checks of `flowgate.yaml` that a schema cannot express: names unique, references resolved
 * (users, stages, endpoints, flows), reserved names, endpoint paths, response mappings; and
 * the warnings of SPEC 3 and 6 (public applications, workflow authentication pointing at a
 * stage/endpoint pair with no deployment).
 */
import { problem, warning, type DocumentPath, type Problem } from '../core/problems.js'
import { defaultExpressionLimits } from '../engine/expressions/guards.js'
import { compileTemplate, expressionSource } from '../engine/expressions/template.js'
import { parseEndpointPath, pathShape } from './endpoint-path.js'
import {
  reservedApplicationNames,
  type ApplicationDocument,
  type ProjectDocument,
  type ResponseDocument,
} from './project-model.js'

const responseFormats = ['JSON', 'STRING', 'BINARY']

export function checkProjectReferences(
  project: ProjectDocument,
  flowNames: ReadonlySet<string>,
): Problem[] {
  const problems: Problem[] = []
  const users = new Set<string>([project.owner])
  unique(project.users ?? [], (u) => u.name, ['users'], 'user', problems).forEach((name) =>
    users.add(name),
  )

  project.apiKeys?.forEach((key, i) => {
    if (!users.has(key.user))
      problems.push(
        problem(['apiKeys', i, 'user'], `API key '${key.name}': unknown user '${key.user}'`),
      )
  })
  unique(project.apiKeys ?? [], (k) => k.name, ['apiKeys'], 'API key', problems)
  unique(project.apiKeys ?? [], (k) => k.sha256, ['apiKeys'], 'API key hash', problems, 'sha256')
  unique(project.workerGroups ?? [], (g) => g, ['workerGroups'], 'worker group', problems)

  unique(project.applications ?? [], (a) => a.name, ['applications'], 'application', problems)
  project.applications?.forEach((application, i) => {
    checkApplication(application, ['applications', i], users, flowNames, problems)
  })
  return problems
}

function checkApplication(
  app: ApplicationDocument,
  at: DocumentPath,
  users: ReadonlySet<string>,
  flowNames: ReadonlySet<string>,
  problems: Problem[],
): void {
  const where = `application '${app.name}'`
  if (reservedApplicationNames.has(app.name)) {
    problems.push(
      problem(
        [...at, 'name'],
        `${where}: the name is reserved (${[...reservedApplicationNames].join(', ')})`,
      ),
    )
  }
  if (!users.has(app.owner))
    problems.push(problem([...at, 'owner'], `${where}: unknown owner '${app.owner}'`))
  const stages = unique(app.stages, (s) => s, [...at, 'stages'], 'stage', problems)

  const endpoints = unique(
    app.endpoints ?? [],
    (e) => e.name,
    [...at, 'endpoints'],
    'endpoint',
    problems,
  )
  const routes = new Map<string, string>()
  app.endpoints?.forEach((endpoint, i) => {
    const parsed = parseEndpointPath(endpoint.path)
    if (!parsed.ok) {
      problems.push(
        problem(
          [...at, 'endpoints', i, 'path'],
          `endpoint '${endpoint.name}': path ${parsed.reason}`,
        ),
      )
      return
    }
    const route = `${endpoint.method} ${pathShape(parsed.segments)}`
    const other = routes.get(route)
    if (other !== undefined) {
      problems.push(
        problem(
          [...at, 'endpoints', i, 'path'],
          `endpoint '${endpoint.name}' routes the same requests as '${other}' (${route})`,
        ),
      )
    } else routes.set(route, endpoint.name)
  })

  const deployed = new Set<string>()
  app.deployments?.forEach((deployment, i) => {
    const d = [...at, 'deployments', i]
    if (!stages.has(deployment.stage)) {
      problems.push(
        problem([...d, 'stage'], `${where}: deployment names unknown stage '${deployment.stage}'`),
      )
    }
    if (!endpoints.has(deployment.endpoint)) {
      problems.push(
        problem(
          [...d, 'endpoint'],
          `${where}: deployment names unknown endpoint '${deployment.endpoint}'`,
        ),
      )
    }
    if (!flowNames.has(deployment.flow)) {
      problems.push(
        problem([...d, 'flow'], `${where}: deployment names unknown flow '${deployment.flow}'`),
      )
    }
    const pair = `${deployment.stage}/${deployment.endpoint}`
    if (deployed.has(pair)) {
      problems.push(
        problem(
          d,
          `${where}: endpoint '${deployment.endpoint}' is deployed twice on stage '${deployment.stage}'`,
        ),
      )
    }
    deployed.add(pair)
    if (deployment.response) checkResponse(deployment.response, [...d, 'response'], problems)
  })

  for (const found of settingsWarnings(app))
    problems.push(warning([...at, ...found.at], found.message))
  const auth = app.authentication ?? []
  const types = new Set<string>()
  auth.forEach((mechanism, i) => {
    const a = [...at, 'authentication', i]
    if (types.has(mechanism.type))
      problems.push(
        problem([...a, 'type'], `${where}: authentication '${mechanism.type}' is listed twice`),
      )
    types.add(mechanism.type)
    if (mechanism.type !== 'workflow') return
    if (mechanism.stage !== 'current' && !stages.has(mechanism.stage)) {
      problems.push(
        problem(
          [...a, 'stage'],
          `${where}: workflow authentication names unknown stage '${mechanism.stage}' (a stage name or current)`,
        ),
      )
    }
    if (!endpoints.has(mechanism.endpoint)) {
      problems.push(
        problem(
          [...a, 'endpoint'],
          `${where}: workflow authentication names unknown endpoint '${mechanism.endpoint}'`,
        ),
      )
    }
  })
}

/**
 * SPEC 3 and 6 settings warnings: a public application; a workflow authentication pointing at
 * a stage/endpoint pair with no deployment (for `current`, each stage lacking one). `at` is
 * the place in the application. Shared by `flowgate validate` and the admin API.
 */
export function settingsWarnings(
  app: ApplicationDocument,
): { at: DocumentPath; message: string }[] {
  const auth = app.authentication ?? []
  const found: { at: DocumentPath; message: string }[] = []
  if (auth.length === 0)
    found.push({ at: ['name'], message: `application ${app.name}: every endpoint is public` })
  const endpoints = new Set((app.endpoints ?? []).map((e) => e.name))
  const deployed = new Set((app.deployments ?? []).map((d) => `${d.stage}/${d.endpoint}`))
  auth.forEach((mechanism, i) => {
    // Unknown endpoints and stages are errors of their own, reported by the reference checks.
    if (mechanism.type !== 'workflow' || !endpoints.has(mechanism.endpoint)) return
    const stages =
      mechanism.stage === 'current'
        ? app.stages
        : app.stages.includes(mechanism.stage)
          ? [mechanism.stage]
          : []
    for (const stage of stages) {
      if (!deployed.has(`${stage}/${mechanism.endpoint}`)) {
        found.push({
          at: ['authentication', i],
          message: authenticationWarning(app.name, stage, mechanism.endpoint),
        })
      }
    }
  })
  return found
}

/** The settings warning of seed 4.1, shared with the admin API. */
export function authenticationWarning(
  application: string,
  stage: string,
  endpoint: string,
): string {
  return `application ${application}: workflow authentication points at stage '${stage}' and endpoint '${endpoint}', where no flow is deployed`
}

function checkResponse(response: ResponseDocument, at: DocumentPath, problems: Problem[]): void {
  const compiler = { timeoutMs: 1000, limits: defaultExpressionLimits, problems }
  for (const [key, value] of Object.entries(response))
    compileTemplate(value, [...at, key], compiler)
  const status = response.statusCode
  if (status !== undefined && expressionSource(status) === undefined) {
    if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599) {
      problems.push(
        problem(
          [...at, 'statusCode'],
          `'statusCode' must be an integer from 200 to 599 or an expression`,
        ),
      )
    }
  }
  const format = response.format
  if (
    format !== undefined &&
    expressionSource(format) === undefined &&
    !(typeof format === 'string' && responseFormats.includes(format))
  ) {
    problems.push(
      problem(
        [...at, 'format'],
        `'format' must be one of ${responseFormats.join(', ')} or an expression`,
      ),
    )
  }
}

/** Reports duplicates at their second occurrence; returns the set of names. */
function unique<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  at: DocumentPath,
  what: string,
  problems: Problem[],
  field?: string,
): Set<string> {
  const seen = new Set<string>()
  items.forEach((item, i) => {
    const key = keyOf(item)
    if (seen.has(key)) {
      const path = typeof item === 'object' ? [...at, i, field ?? 'name'] : [...at, i]
      problems.push(problem(path, `duplicate ${what} '${key}'`))
    }
    seen.add(key)
  })
  return seen
}
