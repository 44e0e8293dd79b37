/**
 * The resources the admin API shows, built from the runtime configuration being served (so
 * they say exactly what the gateway does) and from the store for executions.
 */
import type { ExecutionRecord } from '../storage/records.js'
import type { RuntimeApplication, RuntimeConfiguration } from './runtime-configuration.js'

export function applicationResource(app: RuntimeApplication) {
  const doc = app.document
  const endpoints = new Map((doc.endpoints ?? []).map((e) => [e.name, e]))
  return {
    name: doc.name,
    project: app.project.id,
    owner: doc.owner,
    stages: doc.stages,
    endpoints: doc.endpoints ?? [],
    deployments: (doc.deployments ?? []).map((d) => ({
      stage: d.stage,
      endpoint: d.endpoint,
      method: endpoints.get(d.endpoint)?.method ?? null,
      path: endpoints.get(d.endpoint)?.path ?? null,
      flow: d.flow,
      flowVersion: app.project.flows.get(d.flow)?.version ?? null,
      errorStatusCode: d.errorStatusCode ?? null,
      response: d.response ?? null,
    })),
    authentication: doc.authentication ?? [],
    warnings: app.warnings,
  }
}

export function flowResources(runtime: RuntimeConfiguration) {
  const items = []
  for (const project of runtime.projects.values()) {
    for (const [name, flow] of project.flows) {
      items.push({
        project: project.id,
        name,
        version: flow.version,
        inputs: flow.compiled.inputs.map((v) => ({
          name: v.name,
          type: v.type,
          required: v.required,
        })),
        outputs: flow.compiled.outputs.map((v) => ({ name: v.name, type: v.type })),
        wrapBody: flow.compiled.wrapBody,
        wrapHeaders: flow.compiled.wrapHeaders,
      })
    }
  }
  return items
}

export function deploymentResources(runtime: RuntimeConfiguration) {
  return [...runtime.applications.values()].flatMap((app) =>
    applicationResource(app).deployments.map((d) => ({ application: app.document.name, ...d })),
  )
}

export function executionResource(record: ExecutionRecord) {
  return {
    id: record.id,
    requestId: record.requestId,
    project: record.projectId,
    flow: record.flow,
    flowVersion: record.flowVersion,
    status: record.status,
    trigger: record.trigger,
    application: record.application,
    stage: record.stage,
    endpoint: record.endpoint,
    startedAt: record.startedAt,
    finishedAt: record.finishedAt,
    durationMs: record.durationMs,
    error:
      record.errorCode === null ? null : { code: record.errorCode, message: record.errorMessage },
  }
}
