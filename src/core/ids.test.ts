import { describe, expect, it } from 'vitest'
import { uuidv7 } from './ids.js'

describe('uuidv7', () => {
  it('makes RFC 9562 version 7 UUIDs that sort by time', () => {
    const a = uuidv7(1_000)
    const b = uuidv7(2_000)
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(a < b).toBe(true)
    expect(parseInt(b.replace(/-/g, '').slice(0, 12), 16)).toBe(2_000)
  })
  it('does not repeat', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => uuidv7()))
    expect(ids.size).toBe(10_000)
  })
})
