/**
 * `if`: runs `then` when the condition is true (JSONata truth), else `else`.
 *
 * @example
 * - if: "{% $total > 100 %}"
 *   then: [ { assign: { big: true } } ]
 *   else: []
 */
import { isPromise } from '../expressions/template.js'
import type { Block } from './block.js'
import { truthy } from './truthy.js'

export const ifBlock: Block<'if'> = {
  compile(document, c) {
    return {
      kind: 'if',
      path: c.pathText,
      id: c.id,
      condition: c.template(document.if, [...c.path, 'if']),
      then: c.steps(document.then, [...c.path, 'then']),
      else: c.steps(document.else ?? [], [...c.path, 'else']),
    }
  },

  execute(step, frame) {
    const condition = step.condition.evaluate(frame.scope)
    if (isPromise(condition)) {
      return condition.then((value) => frame.runSteps(truthy(value) ? step.then : step.else))
    }
    return frame.runSteps(truthy(condition) ? step.then : step.else)
  },
}
