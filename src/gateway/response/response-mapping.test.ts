import { describe, expect, it } from 'vitest'
import { isPromise } from '../../engine/expressions/template.js'
import { compileResponse, mapResponse } from './response-mapping.js'

const run = {
  variables: { total: 3, responseStatusCode: 201 },
  outputs: { total: 3, responseStatusCode: 201 },
  context: {},
}

describe('mapResponse', () => {
  it('answers without a promise when nothing is configured (the hot path waits for nothing)', () => {
    const response = mapResponse(undefined, run, { insecureMappings: false })
    expect(isPromise(response)).toBe(false)
    expect(response).toEqual({
      status: 201,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: '{"total":3}',
    })
  })

  it('does not evaluate configured headers or content type unless insecure mappings are on', async () => {
    const configured = compileResponse({
      body: '{% {"sum": $total} %}',
      headers: '{% $number("not a number") %}',
      contentType: '{% $number("not a number") %}',
    })
    const response = await mapResponse(configured, run, { insecureMappings: false })
    expect(response.body).toBe('{"sum":3}')
    await expect(mapResponse(configured, run, { insecureMappings: true })).rejects.toThrow()
  })
})
