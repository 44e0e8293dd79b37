import { describe, expect, it } from 'vitest'
import { finishedExecution, type FinishedRun } from './records.js'

const run: FinishedRun = {
  id: 'e1',
  requestId: 'r1',
  projectId: 'alice/demo',
  flow: 'greet',
  flowVersion: 2,
  trigger: 'http',
  application: 'shop',
  stage: 'prod',
  endpoint: 'orders',
  startedAt: Date.UTC(2026, 10, 21, 12, 0, 0, 5),
  finishedAt: Date.UTC(2026, 10, 21, 12, 0, 1, 7),
  durationMs: 1002.4,
  error: undefined,
}

describe('finishedExecution', () => {
  it('records a succeeded run with ISO times', () => {
    expect(finishedExecution(run)).toEqual({
      id: 'e1',
      requestId: 'r1',
      projectId: 'alice/demo',
      flow: 'greet',
      flowVersion: 2,
      trigger: 'http',
      application: 'shop',
      stage: 'prod',
      endpoint: 'orders',
      status: 'succeeded',
      startedAt: '2026-11-21T12:00:00.005Z',
      finishedAt: '2026-11-21T12:00:01.007Z',
      durationMs: 1002.4,
      errorCode: null,
      errorMessage: null,
    })
  })

  it('records a failed run with its error code and message', () => {
    expect(
      finishedExecution({ ...run, error: { code: 'FLOW_TIMEOUT', message: 'too slow' } }),
    ).toMatchObject({ status: 'failed', errorCode: 'FLOW_TIMEOUT', errorMessage: 'too slow' })
  })
})
