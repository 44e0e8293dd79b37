/**
 * `while`: runs `do` as long as the condition is true. `break` and `continue` act on it. Each
 * iteration counts as a step, so a loop that never ends stops at the run's step cap
 * (STEP_LIMIT_EXCEEDED) or its time limit (FLOW_TIMEOUT).
 *
 * @example
 * - while: "{% $page < $pages %}"
 *   do: [ { assign: { page: "{% $page + 1 %}" } } ]
 */
import { truthy } from './truthy.js'
import type { Block } from './block.js'

export const whileBlock: Block<'while'> = {
  compile(document, c) {
    return {
      kind: 'while',
      path: c.pathText,
      id: c.id,
      condition: c.template(document.while, [...c.path, 'while']),
      do: c.steps(document.do, [...c.path, 'do'], { loop: true }),
    }
  },

  async execute(step, frame) {
    for (;;) {
      frame.tick()
      if (!truthy(await step.condition.evaluate(frame.scope))) return 'next'
      const signal = await frame.runSteps(step.do)
      if (signal === 'break') return 'next'
      if (signal === 'exit') return 'exit'
    }
  },
}
