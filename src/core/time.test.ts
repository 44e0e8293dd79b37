import { describe, expect, it } from 'vitest'
import { isoTime } from './time.js'

describe('isoTime', () => {
  it('writes what Date#toISOString writes', () => {
    const samples = [
      0,
      1,
      9,
      10,
      99,
      100,
      999,
      1000,
      1_700_000_000_000,
      1_700_000_000_001,
      1_700_000_000_999,
      1_700_000_001_000,
      Date.now(),
      -1,
      -1000,
      -62_135_596_800_000,
      253_402_300_799_999,
      253_402_300_800_000,
      1_700_000_000_000.7,
    ]
    for (const ms of samples) expect(isoTime(ms)).toBe(new Date(Math.floor(ms)).toISOString())
  })

  it('agrees over a run of consecutive milliseconds across second boundaries', () => {
    const start = 1_763_740_799_500
    for (let ms = start; ms < start + 2_000; ms += 7)
      expect(isoTime(ms)).toBe(new Date(ms).toISOString())
  })
})
