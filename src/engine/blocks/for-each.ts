/**
 * `forEach`: runs `do` once per item, with the item bound as `$<as>` (and its position as
 * `$<index>` when named). `break` and `continue` act on it. A single value counts as a
 * one-item list; undefined or null, as an empty one. Each iteration counts as a step.
 *
 * @example
 * - forEach: { items: "{% $orders %}", as: order, do: [ { assign: { total: "{% $total + $order.amount %}" } } ] }
 */
import type { ForEachStep } from '../definition.js'
import type { Block, Frame, Signal } from './block.js'

export const forEachBlock: Block<'forEach'> = {
  compile(document, c) {
    const body = document.forEach as { items: unknown; as: unknown; index?: unknown; do: unknown }
    const at = [...c.path, 'forEach']
    const as = c.binding(body.as, [...at, 'as']) ?? '_'
    const index = body.index === undefined ? undefined : c.binding(body.index, [...at, 'index'])
    return {
      kind: 'forEach',
      path: c.pathText,
      id: c.id,
      items: c.template(body.items, [...at, 'items']),
      as,
      index,
      do: c.steps(body.do, [...at, 'do'], { loop: true, binds: index ? [as, index] : [as] }),
    }
  },

  async execute(step, frame) {
    const value = await step.items.evaluate(frame.scope)
    const items =
      value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]
    return iterate(step, frame, items)
  },
}

async function iterate(
  step: ForEachStep,
  frame: Frame,
  items: readonly unknown[],
): Promise<Signal> {
  const { scope } = frame
  try {
    for (let i = 0; i < items.length; i++) {
      frame.tick()
      scope[step.as] = items[i]
      if (step.index !== undefined) scope[step.index] = i
      const signal = await frame.runSteps(step.do)
      if (signal === 'break') break
      if (signal === 'exit') return 'exit'
    }
  } finally {
    delete scope[step.as]
    if (step.index !== undefined) delete scope[step.index]
  }
  return 'next'
}
