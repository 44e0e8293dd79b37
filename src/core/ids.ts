/**
 * Identifiers. Execution ids are UUID version 7 (RFC 9562): time-ordered, so that new records
 * land at the end of the store's indexes instead of at random places, and sorting by id is
 * sorting by creation time.
 */
import { randomFillSync } from 'node:crypto'

const pool = Buffer.alloc(16 * 256)
let offset = pool.length

export function uuidv7(now: number = Date.now()): string {
  if (offset === pool.length) {
    randomFillSync(pool)
    offset = 0
  }
  const bytes = pool.subarray(offset, offset + 16)
  offset += 16
  bytes.writeUIntBE(now, 0, 6)
  bytes[6] = (bytes[6]! & 0x0f) | 0x70
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
