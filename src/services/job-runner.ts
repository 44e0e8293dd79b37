/**
 * Runs a queued (or synchronously triggered) flow: the flow of the job's project, as the
 * configuration being served has it now, with the inputs, body and context captured when it
 * was triggered. Never throws for the flow's own failure: that is an outcome.
 */
import { runFlow } from '../engine/interpreter.js'
import type { Job, JobOutcome } from '../queue/queue.js'
import { runOptions, type RunEnvironment } from './run-options.js'
import type { RuntimeConfiguration } from './runtime-configuration.js'

export interface JobRunnerDependencies extends RunEnvironment {
  readonly runtime: () => RuntimeConfiguration | undefined
  readonly onRun?: (flow: string, outcome: 'succeeded' | 'failed', seconds: number) => void
}

export type JobRunner = (
  job: Pick<Job, 'id' | 'projectId' | 'flow' | 'inputs' | 'body' | 'context'>,
) => Promise<JobOutcome>

export function createJobRunner(deps: JobRunnerDependencies): JobRunner {
  return async (job) => {
    const started = performance.now()
    const project = deps.runtime()?.projects.get(job.projectId)
    const flow = project?.flows.get(job.flow)
    if (project === undefined || flow === undefined) {
      return {
        status: 'failed',
        error: {
          code: 'FLOW_NOT_FOUND',
          message: `No flow '${job.flow}' in project ${job.projectId} any more`,
          flow: job.flow,
        },
        finishedAt: new Date(),
        durationMs: performance.now() - started,
      }
    }
    const result = await runFlow(
      flow.compiled,
      { inputs: job.inputs, body: job.body, context: job.context },
      runOptions(deps, project.registry, job.id),
    )
    const durationMs = performance.now() - started
    deps.onRun?.(job.flow, result.kind === 'completed' ? 'succeeded' : 'failed', durationMs / 1000)
    return result.kind === 'completed'
      ? {
          status: 'succeeded',
          result: result.outputs.result ?? null,
          finishedAt: new Date(),
          durationMs,
        }
      : { status: 'failed', error: result.error, finishedAt: new Date(), durationMs }
  }
}
