/** Writes a throw-away project directory for black-box tests. */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export function projectDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'flowgate-test-'))
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true })
    writeFileSync(join(dir, name), text)
  }
  return dir
}
