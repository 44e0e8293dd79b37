/**
 * `break`, `continue` and `exit`: signals that unwind step lists. `break` and `continue` end
 * the innermost `forEach` or `while` (the compiler refuses them outside a loop); `exit` ends
 * the whole flow successfully, outputs as they stand.
 */
import type { Block } from './block.js'

export const breakBlock: Block<'break'> = {
  compile: (_document, c) => {
    if (c.loopDepth === 0)
      c.problems.push({ path: c.path, message: "'break' outside of a loop", severity: 'error' })
    return { kind: 'break', path: c.pathText, id: c.id }
  },
  execute: () => 'break',
}

export const continueBlock: Block<'continue'> = {
  compile: (_document, c) => {
    if (c.loopDepth === 0) {
      c.problems.push({ path: c.path, message: "'continue' outside of a loop", severity: 'error' })
    }
    return { kind: 'continue', path: c.pathText, id: c.id }
  },
  execute: () => 'continue',
}

export const exitBlock: Block<'exit'> = {
  compile: (_document, c) => ({ kind: 'exit', path: c.pathText, id: c.id }),
  execute: () => 'exit',
}
