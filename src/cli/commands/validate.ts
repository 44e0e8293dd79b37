/**
 * `flowgate validate DIR`: checks a project without serving it and prints every problem as
 * `file:line:column message`. Exit 1 when there is an error; warnings alone exit 0.
 */
import { loadProjectDirectory } from '../../project/load-project.js'
import { formatDiagnostic, type Diagnostic } from '../../project/source-document.js'
import type { CliIO } from '../io.js'

export async function validateCommand(
  directory: string,
  options: { json?: boolean },
  io: CliIO,
): Promise<number> {
  const load = await loadProjectDirectory(directory)
  const diagnostics: Diagnostic[] = load.kind === 'loaded' ? load.warnings : load.diagnostics
  const errors = diagnostics.filter((d) => d.severity === 'error').length
  const warnings = diagnostics.length - errors
  if (options.json) {
    io.out(`${JSON.stringify({ valid: load.kind === 'loaded', diagnostics }, null, 2)}\n`)
  } else {
    for (const d of diagnostics)
      (d.severity === 'error' ? io.err : io.out)(`${formatDiagnostic(d)}\n`)
    if (load.kind === 'loaded') {
      const flows = load.project.flows.size
      const apps = load.project.document.applications?.length ?? 0
      io.out(
        `${directory}: valid (${flows} flow${flows === 1 ? '' : 's'}, ${apps} application${apps === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'})\n`,
      )
    } else {
      io.err(
        `${directory}: invalid (${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'})\n`,
      )
    }
  }
  return load.kind === 'loaded' ? 0 : 1
}
