/**
 * Identifiers. Execution ids are UUID version 7 (RFC 9562): time-ordered, so that new records
 * land at the end of the store's indexes instead of at random places, and sorting by id is
 * sorting by creation time. Two are made per request (request and execution id), so the text is
 * built from a byte-to-hex table rather than Buffer#toString and slices (a third of the cost).
 */
import { randomFillSync } from 'node:crypto'

const pool = Buffer.alloc(16 * 256)
let offset = pool.length
const hex = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

export function uuidv7(now: number = Date.now()): string {
  if (offset === pool.length) {
    randomFillSync(pool)
    offset = 0
  }
  const b = pool
  const o = offset
  offset += 16
  b.writeUIntBE(now, o, 6)
  b[o + 6] = (b[o + 6]! & 0x0f) | 0x70
  b[o + 8] = (b[o + 8]! & 0x3f) | 0x80
  const h = (i: number) => hex[b[o + i]!]!
  return `${h(0)}${h(1)}${h(2)}${h(3)}-${h(4)}${h(5)}-${h(6)}${h(7)}-${h(8)}${h(9)}-${h(10)}${h(11)}${h(12)}${h(13)}${h(14)}${h(15)}`
}
