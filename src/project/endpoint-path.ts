/**
 * Endpoint path mappings: literal segments, `{param}` segments and a trailing `*` wildcard
 * (`/orders/{id}`, `/files/*`). Parsed once when a project is loaded; the gateway builds its
 * routing table from the parsed form.
 */
export type PathSegment =
  | { readonly kind: 'literal'; readonly value: string }
  | { readonly kind: 'param'; readonly name: string }
  | { readonly kind: 'wildcard' }

export type PathParse = { ok: true; segments: PathSegment[] } | { ok: false; reason: string }

const paramPattern = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/
const literalPattern = /^[A-Za-z0-9\-._~!$&'()+,;=:@%]+$/

export function parseEndpointPath(path: string): PathParse {
  if (!path.startsWith('/')) return { ok: false, reason: "must start with '/'" }
  if (path === '/') return { ok: true, segments: [] }
  const parts = path.slice(1).split('/')
  const segments: PathSegment[] = []
  const names = new Set<string>()
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!
    if (part === '') return { ok: false, reason: "has an empty segment ('//' or a trailing '/')" }
    if (part === '*') {
      if (i !== parts.length - 1) return { ok: false, reason: "'*' may only be the last segment" }
      segments.push({ kind: 'wildcard' })
      continue
    }
    const param = paramPattern.exec(part)
    if (param) {
      const name = param[1]!
      if (names.has(name)) return { ok: false, reason: `uses the parameter {${name}} twice` }
      names.add(name)
      segments.push({ kind: 'param', name })
      continue
    }
    if (/[{}*]/.test(part)) {
      return {
        ok: false,
        reason: `segment '${part}': a parameter is a whole segment like {name}, a wildcard a last '*'`,
      }
    }
    if (!literalPattern.test(part))
      return { ok: false, reason: `segment '${part}' has characters not allowed in a URL path` }
    segments.push({ kind: 'literal', value: part })
  }
  return { ok: true, segments }
}

/** Two paths with the same shape (`/a/{x}` and `/a/{y}`) would route the same requests. */
export function pathShape(segments: readonly PathSegment[]): string {
  return (
    '/' +
    segments
      .map((s) => (s.kind === 'literal' ? s.value : s.kind === 'param' ? '{}' : '*'))
      .join('/')
  )
}
