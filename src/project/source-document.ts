/**
 * A YAML or JSON file read with positions, so that any problem found later (by the schema, by
 * the flow compiler, by reference checks) can be reported as `file:line:column message`.
 * JSON is parsed by the YAML parser too (JSON is YAML 1.2), which gives JSON files the same
 * positions; a `.json` file that YAML rejects falls back to JSON.parse.
 */
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml'
import type { DocumentPath, Problem } from '../core/problems.js'

export interface Position {
  readonly line: number
  readonly column: number
}

export interface Diagnostic {
  readonly file: string
  readonly line: number
  readonly column: number
  readonly message: string
  readonly severity: 'error' | 'warning'
}

export interface SourceDocument {
  readonly file: string
  /** The parsed value; undefined when the text could not be parsed (see `syntaxErrors`). */
  readonly value: unknown
  readonly syntaxErrors: readonly Diagnostic[]
  locate(path: DocumentPath, atKey?: boolean): Position
  diagnostic(problem: Problem): Diagnostic
}

/** Files bigger than this are refused: a flow or project file has no reason to be huge. */
export const maxSourceBytes = 1024 * 1024

export function parseSource(file: string, text: string): SourceDocument {
  const lineCounter = new LineCounter()
  const fail = (message: string, line = 1, column = 1): SourceDocument =>
    withLocator(file, undefined, [{ file, line, column, message, severity: 'error' }], () => ({
      line: 1,
      column: 1,
    }))
  if (Buffer.byteLength(text) > maxSourceBytes)
    return fail(`file is larger than ${maxSourceBytes} bytes`)

  const document = parseDocument(text, {
    lineCounter,
    uniqueKeys: true,
    prettyErrors: false,
    strict: true,
  })
  if (document.errors.length > 0) {
    if (file.endsWith('.json')) return parseJsonFallback(file, text, lineCounter)
    // Only the first error: the ones after it are mostly its echoes.
    const errors = document.errors.slice(0, 1).map((error) => {
      const pos = lineCounter.linePos(error.pos[0])
      return {
        file,
        line: pos.line,
        column: pos.col,
        message: firstLine(error.message),
        severity: 'error' as const,
      }
    })
    return withLocator(file, undefined, errors, () => ({ line: 1, column: 1 }))
  }
  let value: unknown
  try {
    value = document.toJS({ maxAliasCount: 100 })
  } catch (error) {
    return fail(firstLine((error as Error).message))
  }
  const locate = (path: DocumentPath, atKey = false): Position => {
    const offset = offsetOf(document.contents, path, atKey)
    const pos = lineCounter.linePos(offset)
    return { line: pos.line, column: pos.col }
  }
  return withLocator(file, value, [], locate)
}

function parseJsonFallback(file: string, text: string, lineCounter: LineCounter): SourceDocument {
  try {
    return withLocator(file, JSON.parse(text), [], () => ({ line: 1, column: 1 }))
  } catch (error) {
    const message = (error as Error).message
    const at = /position (\d+)/.exec(message)
    const pos = at ? lineCounter.linePos(Number(at[1])) : { line: 1, col: 1 }
    return withLocator(
      file,
      undefined,
      [
        {
          file,
          line: pos.line,
          column: pos.col,
          message: `invalid JSON: ${message}`,
          severity: 'error',
        },
      ],
      () => ({ line: 1, column: 1 }),
    )
  }
}

function withLocator(
  file: string,
  value: unknown,
  syntaxErrors: Diagnostic[],
  locate: (path: DocumentPath, atKey?: boolean) => Position,
): SourceDocument {
  return {
    file,
    value,
    syntaxErrors,
    locate,
    diagnostic(problem) {
      const pos = locate(problem.path, problem.atKey)
      return {
        file,
        line: pos.line,
        column: pos.column,
        message: problem.message,
        severity: problem.severity,
      }
    },
  }
}

/** Walks the YAML node tree as far as the path goes; the deepest node found gives the offset. */
function offsetOf(root: unknown, path: DocumentPath, atKey: boolean): number {
  let node = root as Node | null
  let offset = node?.range?.[0] ?? 0
  for (let i = 0; i < path.length; i++) {
    const segment = path[i]
    const last = i === path.length - 1
    if (isMap(node)) {
      const pair = node.items.find(
        (p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(segment),
      )
      if (!pair) return offset
      const key = pair.key as Node
      if (last && atKey) return key.range?.[0] ?? offset
      node = (pair.value as Node | null) ?? null
      offset = node?.range?.[0] ?? key.range?.[0] ?? offset
    } else if (isSeq(node) && typeof segment === 'number') {
      const item = node.items[segment] as Node | undefined
      if (!item) return offset
      node = item
      offset = item.range?.[0] ?? offset
    } else {
      return offset
    }
  }
  return offset
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message
}

export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.column} ${d.severity === 'warning' ? 'warning: ' : ''}${d.message}`
}
