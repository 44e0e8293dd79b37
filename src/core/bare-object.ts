/**
 * Records with nothing of Object.prototype above them (no `constructor`, `toString` or
 * `__proto__` setter for hostile keys or expressions to reach), yet in V8's fast mode:
 * `Object.create(null)` makes dictionary-mode objects, slower to fill and to read, and the
 * engine makes several per run. Node's own querystring module uses the same construction.
 *
 * @example
 * const scope = new BareObject<unknown>()
 * scope.total = 3
 */
export const BareObject = function () {} as unknown as new <T = unknown>() => Record<string, T>
BareObject.prototype = Object.create(null) as object

/** Keys refused in request data: on an ordinary object they reach or replace its prototype. */
export const prototypeKeys: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype'])
