/**
 * `flowgate run FLOW_FILE --input JSON`: runs a flow locally and prints its outputs as JSON.
 * Exit 0 on success; 1 with the error (as JSON on stderr) when the flow fails or the file is
 * invalid.
 */
import { readFile } from 'node:fs/promises'
import type { LogLevel } from '../../engine/definition.js'
import { runFlow } from '../../engine/interpreter.js'
import { isPlainObject } from '../../engine/convert.js'
import { loadFlowFile } from '../../project/load-flow-file.js'
import { formatDiagnostic } from '../../project/source-document.js'
import type { CliIO } from '../io.js'

export interface RunCommandOptions {
  input?: string
  inputFile?: string
  headers?: string
  context?: string
  timeout?: string
  logLevel?: LogLevel
}

const levels: LogLevel[] = ['debug', 'info', 'warn', 'error']

export async function runCommand(
  file: string,
  options: RunCommandOptions,
  io: CliIO,
): Promise<number> {
  const parsed = await parseObjects(options, io)
  if (parsed === undefined) return 1
  const load = await loadFlowFile(file)
  if (load.kind === 'invalid') {
    for (const d of load.diagnostics) io.err(`${formatDiagnostic(d)}\n`)
    return 1
  }
  for (const d of load.warnings) io.err(`${formatDiagnostic(d)}\n`)
  const timeoutMs = options.timeout === undefined ? undefined : Number(options.timeout)
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0)) {
    io.err(`--timeout must be a positive whole number of milliseconds\n`)
    return 1
  }
  const threshold = levels.indexOf(options.logLevel ?? 'info')
  const result = await runFlow(
    load.flow,
    {
      inputs: parsed.inputs,
      body: parsed.inputs,
      headers: parsed.headers,
      context: parsed.context,
    },
    {
      registry: load.registry,
      ...(timeoutMs !== undefined && { timeoutMs }),
      logger: {
        log(level, message, fields) {
          if (levels.indexOf(level) >= threshold) {
            io.err(
              `${JSON.stringify({ level, time: new Date().toISOString(), msg: message, ...fields })}\n`,
            )
          }
        },
      },
    },
  )
  if (result.kind === 'failed') {
    io.err(`${JSON.stringify({ error: result.error }, null, 2)}\n`)
    return 1
  }
  io.out(`${JSON.stringify(result.outputs, null, 2)}\n`)
  return 0
}

interface ParsedObjects {
  inputs: Record<string, unknown>
  headers: Record<string, unknown>
  context: Record<string, unknown>
}

async function parseObjects(
  options: RunCommandOptions,
  io: CliIO,
): Promise<ParsedObjects | undefined> {
  let inputText = options.input
  if (options.inputFile !== undefined) {
    try {
      inputText = await readFile(options.inputFile, 'utf8')
    } catch (error) {
      io.err(`cannot read --input-file: ${(error as Error).message}\n`)
      return undefined
    }
  }
  const inputs = objectOption('--input', inputText, io)
  const headers = objectOption('--headers', options.headers, io)
  const context = objectOption('--context', options.context, io)
  if (!inputs || !headers || !context) return undefined
  // Header names are case-insensitive: flows see them in lower case, as the gateway gives them.
  const lowerHeaders = Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]),
  )
  return { inputs, headers: lowerHeaders, context: { userName: null, authorities: [], ...context } }
}

function objectOption(
  name: string,
  text: string | undefined,
  io: CliIO,
): Record<string, unknown> | undefined {
  if (text === undefined) return {}
  try {
    const value = JSON.parse(text) as unknown
    if (isPlainObject(value)) return value
    io.err(`${name} must be a JSON object\n`)
  } catch (error) {
    io.err(`${name} is not valid JSON: ${(error as Error).message}\n`)
  }
  return undefined
}
