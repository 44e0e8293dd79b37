import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { AppError, errorCatalogue, statusOf } from './errors.js'

describe('error catalogue', () => {
  it('lists the same codes and statuses as docs/errors.md', () => {
    const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8')
    const documented: Record<string, number> = {}
    for (const m of doc.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \|/gm))
      documented[m[1]!] = Number(m[2])
    const catalogued = Object.fromEntries(
      Object.entries(errorCatalogue).map(([code, e]) => [code, e.status]),
    )
    expect(documented).toEqual(catalogued)
  })

  it('gives an AppError its status and default message', () => {
    const error = new AppError('FLOW_NOT_FOUND', { flow: 'greet' })
    expect(error).toMatchObject({
      code: 'FLOW_NOT_FOUND',
      status: 404,
      message: 'No such flow',
      details: { flow: 'greet' },
    })
  })

  it('maps user codes of throw steps to 500', () => {
    expect(statusOf('E_STOCK')).toBe(500)
    expect(statusOf('INPUT_REQUIRED')).toBe(400)
  })
})
