/**
 * Validation of user files against the published JSON Schemas in `schemas/`, with Ajv's
 * errors rewritten into plain messages located by document path.
 *
 * The build turns the schemas into validation code once (`scripts/build-validators.js`,
 * Ajv's standalone mode), which spares every start-up Ajv's compilation (about a tenth of a
 * second); running from sources, the schemas are compiled on first use instead.
 */
import { existsSync, readFileSync } from 'node:fs'
import type { Ajv, ErrorObject, Options, ValidateFunction } from 'ajv'
import { problem, type DocumentPath, type Problem } from '../core/problems.js'
import { stepKinds } from '../engine/definition.js'

export type SchemaName = 'flow' | 'project'

const schemaDirectory = new URL('../../schemas/', import.meta.url)

export const ajvOptions: Options = {
  allErrors: true,
  verbose: true,
  strict: true,
  strictRequired: false,
  allowUnionTypes: true,
}

/**
 * `errorMessage` is an annotation (VS Code and yaml-language-server show it too). Ajv itself
 * is loaded only here: the build's generated code does not need it.
 */
export async function createAjv(options: Options = {}): Promise<Ajv> {
  const { Ajv: AjvClass } = await import('ajv')
  const ajv = new AjvClass({ ...ajvOptions, ...options })
  ajv.addKeyword({ keyword: 'errorMessage', schemaType: 'string' })
  return ajv
}

export function readSchema(name: SchemaName): object {
  return JSON.parse(readFileSync(new URL(`${name}.schema.json`, schemaDirectory), 'utf8')) as object
}

const generated = new URL('./generated-validators.cjs', import.meta.url)
const compiled: Record<SchemaName, ValidateFunction> = existsSync(generated)
  ? ((await import(generated.href)) as { default: Record<SchemaName, ValidateFunction> }).default
  : await compileSchemas()

async function compileSchemas(): Promise<Record<SchemaName, ValidateFunction>> {
  const ajv = await createAjv()
  return { flow: ajv.compile(readSchema('flow')), project: ajv.compile(readSchema('project')) }
}

/** The step definition carries this `$comment`, so its errors can be recognised. */
const stepMarker = 'flowgate:step'

export function validateAgainstSchema(name: SchemaName, value: unknown): Problem[] {
  const validate = compiled[name]
  if (validate(value)) return []
  return toProblems(validate.errors ?? [], value)
}

const kindList = stepKinds.join(', ')

function toProblems(errors: readonly ErrorObject[], root: unknown): Problem[] {
  const problems: Problem[] = []
  const seen = new Set<string>()
  const push = (p: Problem) => {
    const key = `${p.path.join('/')}|${p.message}`
    if (!seen.has(key)) {
      seen.add(key)
      problems.push(p)
    }
  }
  // Steps first: an unknown or ambiguous step makes every other error at its path noise.
  const stepPaths = new Set<string>()
  for (const error of errors) {
    const parent = error.parentSchema as { $comment?: string } | undefined
    if (error.keyword !== 'anyOf' || !parent?.$comment?.startsWith(stepMarker)) continue
    const path = pathOf(error.instancePath)
    stepPaths.add(error.instancePath)
    const value = valueAt(root, path) as Record<string, unknown>
    const keys = Object.keys(value ?? {}).filter((k) => k !== 'id')
    push(
      problem(
        keys.length > 0 ? [...path, keys[0]!] : path,
        keys.length > 0
          ? `unknown step '${keys[0]}' (expected one of ${kindList})`
          : `empty step (expected one of ${kindList})`,
        { atKey: keys.length > 0 },
      ),
    )
  }
  for (const error of errors) {
    // The anyOf of a step and its `required` branches were reported above as one message;
    // `if` errors only repeat the errors of their `then`.
    if (stepPaths.has(error.instancePath) && error.schemaPath.startsWith('#/anyOf')) continue
    if (error.keyword === 'if') continue
    const message = messageOf(error, root)
    if (message === undefined) continue
    push(message)
  }
  return problems
}

function messageOf(error: ErrorObject, root: unknown): Problem | undefined {
  const path = pathOf(error.instancePath)
  const name = describe(path)
  const parent = error.parentSchema as
    { errorMessage?: string; properties?: Record<string, unknown> } | undefined
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = (error.params as { additionalProperty: string }).additionalProperty
      const value = valueAt(root, path) as Record<string, unknown>
      const known = Object.keys(parent?.properties ?? {}).filter((k) => k !== '$schema')
      // A step with two kinds is reported once, in words.
      const kinds = Object.keys(value ?? {}).filter((k) =>
        (stepKinds as readonly string[]).includes(k),
      )
      if (kinds.length > 1 && kinds.includes(key)) {
        return problem(path, `a step has exactly one kind, this one has ${kinds.join(' and ')}`)
      }
      const expected = known.length > 0 ? ` (expected one of ${known.join(', ')})` : ''
      return problem([...path, key], `unknown key '${key}'${expected}`, { atKey: true })
    }
    case 'required': {
      const key = (error.params as { missingProperty: string }).missingProperty
      return problem(
        path,
        `${name === 'the document' ? '' : `${name}: `}missing required key '${key}'`,
      )
    }
    case 'type':
      return problem(path, `${name} must be ${article((error.params as { type: string }).type)}`)
    case 'enum': {
      const allowed = (error.params as { allowedValues: unknown[] }).allowedValues
      return problem(
        path,
        `${name} must be one of ${allowed.map(String).join(', ')} (got ${JSON.stringify(error.data)})`,
      )
    }
    case 'pattern':
      return problem(
        path,
        `${name} ${parent?.errorMessage ?? `must match ${(error.params as { pattern: string }).pattern}`}`,
      )
    case 'minimum':
    case 'maximum':
    case 'minItems':
    case 'maxItems':
    case 'minLength':
    case 'maxLength':
    case 'minProperties':
      return problem(path, `${name} ${error.message ?? 'is out of range'}`)
    case 'propertyNames':
      return undefined // reported by the pattern error on the offending name
    default:
      return problem(path, `${name} ${error.message ?? 'is invalid'}`)
  }
}

/** `/steps/2/then/0` -> ['steps', 2, 'then', 0] (JSON pointer, numbers for array indexes). */
function pathOf(pointer: string): DocumentPath {
  if (pointer === '') return []
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s))
}

function valueAt(root: unknown, path: DocumentPath): unknown {
  let value = root
  for (const segment of path) {
    if (value === null || typeof value !== 'object') return undefined
    value = (value as Record<string | number, unknown>)[segment]
  }
  return value
}

function describe(path: DocumentPath): string {
  const last = path.at(-1)
  if (last === undefined) return 'the document'
  if (typeof last === 'number') return `item ${last} of '${String(path.at(-2))}'`
  return `'${last}'`
}

function article(type: string): string {
  const words = type
    .split(',')
    .map((t) => (t === 'object' || t === 'array' || t === 'integer' ? `an ${t}` : `a ${t}`))
  return words.join(' or ')
}
