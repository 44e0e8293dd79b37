/**
 * `flowgate keys create --user NAME`: makes a new random API key, prints it once, and prints
 * the entry to paste into `flowgate.yaml` (only its sha256 is ever stored).
 */
import { createHash, randomBytes } from 'node:crypto'
import type { CliIO } from '../io.js'

export function createKeyCommand(
  options: { user: string; name?: string; json?: boolean },
  io: CliIO,
): number {
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/.test(options.user)) {
    io.err(`--user must be a user name (letters, digits, '.', '_' or '-')\n`)
    return 1
  }
  const key = `fg_${randomBytes(24).toString('base64url')}`
  const sha256 = createHash('sha256').update(key).digest('hex')
  const name = options.name ?? `${options.user}-${sha256.slice(0, 8)}`
  if (options.json) {
    io.out(`${JSON.stringify({ key, sha256, name, user: options.user })}\n`)
    return 0
  }
  io.out(
    `key:    ${key}\nsha256: ${sha256}\n\n` +
      `The key is shown only now. Add this to apiKeys in flowgate.yaml:\n\n` +
      `  - name: ${name}\n    user: ${options.user}\n    sha256: ${sha256}\n`,
  )
  return 0
}
