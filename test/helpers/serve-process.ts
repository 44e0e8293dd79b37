/** Runs `flowgate serve` as a real process, as users do, and talks to it over HTTP. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { binPath, repoRoot } from './cli.js'

export interface ServeProcess {
  url: string
  child: ChildProcessWithoutNullStreams
  stdout: () => string
  stderr: () => string
  /** Resolves when a line matching `pattern` has appeared on stdout or stderr. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>
  stop(signal?: NodeJS.Signals): Promise<number | null>
}

export async function startServe(
  args: string[],
  env: Record<string, string> = {},
): Promise<ServeProcess> {
  const child = spawn(binPath, ['serve', '--port', '0', ...args], {
    cwd: repoRoot,
    env: { ...process.env, NODE_OPTIONS: '', LOG_LEVEL: 'warn', ...env },
  })
  let out = ''
  let err = ''
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const waitFor = (pattern: RegExp, timeoutMs = 15_000) =>
    new Promise<void>((resolve, reject) => {
      const started = Date.now()
      const check = () => {
        if (pattern.test(out) || pattern.test(err)) return resolve()
        if (child.exitCode !== null)
          return reject(new Error(`serve exited (${child.exitCode}):\n${out}\n${err}`))
        if (Date.now() - started > timeoutMs)
          return reject(new Error(`timed out waiting for ${String(pattern)}:\n${out}\n${err}`))
        setTimeout(check, 20)
      }
      check()
    })
  await waitFor(/flowgate listening on (http:\/\/\S+)/)
  const url = /flowgate listening on (http:\/\/\S+)/.exec(out)![1]!
  return {
    url,
    child,
    stdout: () => out,
    stderr: () => err,
    waitFor,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal)
      return exited
    },
  }
}
