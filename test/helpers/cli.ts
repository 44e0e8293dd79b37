/** Runs the real `flowgate` bin (black box), as users do after `npm ci`. */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export const binPath = fileURLToPath(new URL('../../bin/flowgate.js', import.meta.url))
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url))

export interface CliResult {
  code: number | null
  stdout: string
  stderr: string
}

/** Executes the bin directly, so its shebang line decides how Node starts. */
export function flowgate(
  args: string[],
  options: { cwd?: string; timeoutMs?: number } = {},
): CliResult {
  const result = spawnSync(binPath, args, {
    cwd: options.cwd ?? repoRoot,
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 20_000,
    env: { ...process.env, NODE_OPTIONS: '' },
  })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

/** Starts the bin as `node bin/flowgate.js`, without the shebang's flags. */
export function flowgateViaNode(args: string[], options: { timeoutMs?: number } = {}): CliResult {
  const result = spawnSync(process.execPath, [binPath, ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 20_000,
    env: { ...process.env, NODE_OPTIONS: '' },
  })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}
