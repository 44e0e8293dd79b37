/**
 * A problem found in a document users wrote, located by its path inside that document.
 * The project loader turns the path into file, line and column.
 */
export type DocumentPath = readonly (string | number)[]

export type Severity = 'error' | 'warning'

export interface Problem {
  readonly path: DocumentPath
  readonly message: string
  readonly severity: Severity
  /** Point at the key itself rather than its value (unknown keys, duplicates). */
  readonly atKey?: boolean
}

export function problem(
  path: DocumentPath,
  message: string,
  extra: Partial<Problem> = {},
): Problem {
  return { path, message, severity: 'error', ...extra }
}

export function warning(path: DocumentPath, message: string): Problem {
  return { path, message, severity: 'warning' }
}

/** `steps[2].then[0]`: the way error messages name a place in a flow. */
export function formatPath(path: DocumentPath): string {
  let out = ''
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`
    else out += out === '' ? segment : `.${segment}`
  }
  return out
}
