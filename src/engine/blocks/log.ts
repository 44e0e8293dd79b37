/**
 * `log`: writes a message to the gateway's log (or stderr for `flowgate run`), tagged with the
 * flow, the step and the execution id. Non-text messages are written as JSON.
 *
 * @example
 * - log: { message: "{% 'paid ' & $total %}", level: info }
 */
import type { LogLevel } from '../definition.js'
import { isPromise } from '../expressions/template.js'
import type { Block } from './block.js'

export const logBlock: Block<'log'> = {
  compile(document, c) {
    const body = document.log as { message: unknown; level?: LogLevel }
    return {
      kind: 'log',
      path: c.pathText,
      id: c.id,
      message: c.template(body.message, [...c.path, 'log', 'message']),
      level: body.level ?? 'info',
    }
  },

  execute(step, frame) {
    const write = (message: unknown) => {
      frame.state.logger.log(
        step.level,
        typeof message === 'string' ? message : (JSON.stringify(message) ?? ''),
        {
          flow: frame.flow.name,
          step: step.path,
          ...(step.id !== undefined && { stepId: step.id }),
          executionId: frame.state.executionId,
        },
      )
      return 'next' as const
    }
    const message = step.message.evaluate(frame.scope)
    return isPromise(message) ? message.then(write) : write(message)
  },
}
