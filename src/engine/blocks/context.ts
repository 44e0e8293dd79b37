/**
 * `context`: copies the run's context (`$context`: userName, authorities, application,
 * stage, method, path, flow, executionId, and what an authentication flow propagated) into a
 * variable. Useful when a variable named `context` (an authentication flow's output) hides
 * `$context`.
 *
 * @example
 * - context: { into: ctx }
 */
import type { Block } from './block.js'

export const contextBlock: Block<'context'> = {
  compile(document, c) {
    const body = document.context as { into: unknown }
    return {
      kind: 'context',
      path: c.pathText,
      id: c.id,
      into: c.target(body.into, [...c.path, 'context', 'into']) ?? 'result',
    }
  },

  execute(step, frame) {
    frame.assign(step.into, structuredClone(frame.context))
    return 'next'
  },
}
