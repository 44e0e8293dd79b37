/**
 * The registry of blocks: one per step kind. The mapped type makes a kind without a block a
 * compile error.
 */
import type { StepKind } from '../definition.js'
import { assignBlock } from './assign.js'
import type { Block } from './block.js'
import { callBlock } from './call.js'
import { contextBlock } from './context.js'
import { forEachBlock } from './for-each.js'
import { httpBlock } from './http.js'
import { ifBlock } from './if.js'
import { logBlock } from './log.js'
import { breakBlock, continueBlock, exitBlock } from './loop-control.js'
import { switchBlock } from './switch.js'
import { throwBlock } from './throw.js'
import { tryBlock } from './try.js'
import { whileBlock } from './while.js'

export const blocks: { readonly [K in StepKind]: Block<K> } = {
  assign: assignBlock,
  if: ifBlock,
  switch: switchBlock,
  forEach: forEachBlock,
  while: whileBlock,
  break: breakBlock,
  continue: continueBlock,
  exit: exitBlock,
  throw: throwBlock,
  try: tryBlock,
  http: httpBlock,
  call: callBlock,
  context: contextBlock,
  log: logBlock,
}
