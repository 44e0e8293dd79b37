/**
 * The fast path must agree with JSONata on every value it answers. Each case is evaluated both
 * ways: by the compiled closure, and by JSONata itself.
 */
import jsonata from 'jsonata'
import { describe, expect, it } from 'vitest'
import { compileFast, FALLBACK } from './fast-path.js'

const scope = {
  n: 3,
  zero: 0,
  f: 0.1,
  s: 'text',
  empty: '',
  t: true,
  no: false,
  nil: null,
  obj: { a: 1, b: { c: 'deep' }, list: [1, 2], one: [7], 'x-token': 'tok', nested: { n: null } },
  list: [1, 2, 3],
  single: ['only'],
  objs: [{ a: 1 }, { a: 2 }],
  undef: undefined,
}

const expressions = [
  '$n',
  '$s',
  '$nil',
  '$t',
  '$undef',
  '$missing',
  '$list',
  '$single',
  '$obj',
  '$obj.a',
  '$obj.b.c',
  '$obj.nope',
  '$obj.b.nope.deeper',
  "$obj.'x-token'",
  '$s.length',
  '$nil.a',
  '$n.a',
  '$obj.list',
  '$obj.one',
  '$objs.a',
  '$obj.nested.n',
  '1 + 2',
  '$n * 2.5',
  '$n - $f',
  '$n / 4',
  '$n % 2',
  '$undef + 1',
  '$s + 1',
  '$n / $zero',
  '-$n',
  '-$undef',
  '-$s',
  '$f + 0.2',
  '$n = 3',
  "$s = 'text'",
  '$undef = $undef',
  '$nil = null',
  '$n != 4',
  '$undef != 1',
  '$obj = $obj',
  '$list = $list',
  '$n > 2',
  '$n <= 3',
  "$s < 'u'",
  '$undef < 3',
  "$n < 'a'",
  '$t > 1',
  "'a' & 'b'",
  '$s & $n',
  "$f & ''",
  '$t & $nil',
  "$undef & 'x'",
  "'v' & $obj",
  "'n=' & (0.1 + 0.2)",
  '1e21 & ""',
  '123456789.123456789 & ""',
  '$t and $n',
  '$no and $undef',
  '$empty or $s',
  '$undef or $zero',
  '$list and true',
  '$obj and 1',
  '$t ? 1 : 2',
  '$empty ? 1 : 2',
  '$undef ? 1',
  '$list ? "y" : "n"',
  '$single ? "y" : "n"',
  '$s ? $s : $obj.a',
  "{'a': $n, 'b': $undef, 'c': $obj.b}",
  "{'list': $list, 'one': $single}",
  "{'x': {'y': $s & '!'}}",
  '($n + 1)',
  "$n > 1 and $s = 'text' ? {'ok': true} : {'ok': false}",
]

async function viaJsonata(expression: string): Promise<{ value?: unknown; error?: string }> {
  try {
    return { value: await jsonata(expression).evaluate(undefined, scope) }
  } catch (error) {
    return { error: (error as { code?: string }).code ?? String(error) }
  }
}

describe('the fast path agrees with JSONata', () => {
  it.each(expressions)('%s', async (expression) => {
    const fast = compileFast(jsonata(expression).ast())
    expect(fast, 'should be compiled').toBeDefined()
    const answer = fast!(scope)
    const reference = await viaJsonata(expression)
    if (answer === FALLBACK) return // JSONata decides; nothing to compare
    expect(
      reference.error,
      `JSONata fails with ${reference.error} where the fast path answered`,
    ).toBeUndefined()
    expect(JSON.stringify(answer)).toEqual(JSON.stringify(reference.value))
    expect(answer === undefined).toBe(reference.value === undefined)
  })

  it('leaves what it does not know to JSONata at compile time', () => {
    for (const expression of [
      '$count($list)',
      '$list[0]',
      '$x := 1',
      'a.b',
      '$',
      '**',
      '[1, 2]',
      '$obj.*',
      '$s ~> $uppercase()',
      'function($x){$x}',
      '$n in $list',
    ]) {
      expect(compileFast(jsonata(expression).ast()), expression).toBeUndefined()
    }
  })

  it('hands arrays in paths, sequences, non-finite numbers and type errors to JSONata', () => {
    const cases: [string, Record<string, unknown>][] = [
      ['$obj.list', scope],
      ['$objs.a', scope],
      ['$n / $zero', scope],
      ["$n < 'a'", scope],
      ['$s + 1', scope],
      ['$x', { x: Object.assign([1], { sequence: true }) }],
      ['$sum', {}],
    ]
    for (const [expression, values] of cases) {
      expect(compileFast(jsonata(expression).ast())!(values), expression).toBe(FALLBACK)
    }
  })
})
