/**
 * `switch`: runs the case whose key equals the value (compared as text, so `1` matches case
 * `"1"` and `true` matches case `"true"`), else `default`.
 *
 * @example
 * - switch:
 *     value: "{% $kind %}"
 *     cases: { a: [ { assign: { n: 1 } } ], b: [] }
 *     default: [ { throw: { message: unknown kind } } ]
 */
import type { Step } from '../definition.js'
import { isPromise } from '../expressions/template.js'
import type { Block } from './block.js'

export const switchBlock: Block<'switch'> = {
  compile(document, c) {
    const body = document.switch as {
      value: unknown
      cases: Record<string, unknown>
      default?: unknown
    }
    const at = [...c.path, 'switch']
    const cases = new Map<string, readonly Step[]>()
    for (const [key, steps] of Object.entries(body.cases)) {
      cases.set(key, c.steps(steps, [...at, 'cases', key]))
    }
    return {
      kind: 'switch',
      path: c.pathText,
      id: c.id,
      value: c.template(body.value, [...at, 'value']),
      cases,
      default: c.steps(body.default ?? [], [...at, 'default']),
    }
  },

  execute(step, frame) {
    const choose = (value: unknown) => {
      const key =
        typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
          ? String(value)
          : undefined
      return frame.runSteps((key !== undefined ? step.cases.get(key) : undefined) ?? step.default)
    }
    const value = step.value.evaluate(frame.scope)
    return isPromise(value) ? value.then(choose) : choose(value)
  },
}
