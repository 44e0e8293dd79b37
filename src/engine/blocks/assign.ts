/**
 * `assign`: sets several variables, in order, so a later entry sees an earlier one.
 *
 * @example
 * - assign: { total: "{% $price * $qty %}", status: open }
 */
import type { AssignStep } from '../definition.js'
import { isPromise } from '../expressions/template.js'
import type { Block, Frame, Signal } from './block.js'

export const assignBlock: Block<'assign'> = {
  compile(document, c) {
    const entries = document.assign as Record<string, unknown>
    const assignments: AssignStep['assignments'][number][] = []
    for (const [name, value] of Object.entries(entries)) {
      const target = c.target(name, [...c.path, 'assign', name])
      if (target !== undefined) {
        assignments.push({ name: target, value: c.template(value, [...c.path, 'assign', name]) })
      }
    }
    return { kind: 'assign', path: c.pathText, id: c.id, assignments }
  },

  execute(step, frame) {
    const { assignments } = step
    for (let i = 0; i < assignments.length; i++) {
      const { name, value } = assignments[i]!
      const result = value.evaluate(frame.scope)
      if (isPromise(result)) return finishAsync(step, frame, i, result)
      frame.assign(name, result)
    }
    return 'next'
  },
}

/** Continues from the first assignment whose expression had to be awaited. */
async function finishAsync(
  step: AssignStep,
  frame: Frame,
  from: number,
  pending: Promise<unknown>,
): Promise<Signal> {
  frame.assign(step.assignments[from]!.name, await pending)
  for (let i = from + 1; i < step.assignments.length; i++) {
    const { name, value } = step.assignments[i]!
    frame.assign(name, await value.evaluate(frame.scope))
  }
  return 'next'
}
