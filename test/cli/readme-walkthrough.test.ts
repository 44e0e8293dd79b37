/**
 * The README's walkthrough, run verbatim against a fresh `flowgate serve` of the example
 * project, so that it cannot rot. Expected lines may use `...` for values that change
 * between runs (ids, times).
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServe, type ServeProcess } from '../helpers/serve-process.js'

interface Step {
  command: string
  expected: string[]
}

function walkthrough(): Step[] {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
  const block =
    /<!-- walkthrough:start[^>]*-->\s*```console\n([\s\S]*?)```\s*<!-- walkthrough:end -->/.exec(
      readme,
    )
  if (!block) throw new Error('README has no walkthrough block')
  const steps: Step[] = []
  let continuing = false
  for (const line of block[1]!.split('\n').filter((l) => l !== '')) {
    if (continuing) {
      steps.at(-1)!.command += `\n${line}`
      continuing = line.endsWith('\\')
    } else if (line.startsWith('$ ')) {
      steps.push({ command: line.slice(2), expected: [] })
      continuing = line.endsWith('\\')
    } else {
      steps.at(-1)!.expected.push(line)
    }
  }
  return steps
}

function matcher(expected: string): RegExp {
  return new RegExp(
    `^${expected
      .split('...')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  )
}

let serve: ServeProcess
beforeAll(async () => {
  serve = await startServe(
    ['--project', 'examples/demo', '--data', mkdtempSync(join(tmpdir(), 'flowgate-readme-'))],
    {
      FLOWGATE_ADMIN_TOKEN: 'dev-secret',
    },
  )
})
afterAll(async () => {
  await serve.stop()
})

describe('README walkthrough', () => {
  const steps = walkthrough()
  it('has commands to run', () => {
    expect(steps.length).toBeGreaterThan(5)
  })
  it.each(steps.map((s) => [s.command.split('\n')[0]!, s] as const))('%s', (_title, step) => {
    const command = step.command.replaceAll('http://127.0.0.1:8080', serve.url)
    const output = execFileSync('bash', ['-c', command], { encoding: 'utf8', timeout: 10_000 })
    const lines = output.split('\n').filter((l) => l !== '')
    expect(lines).toHaveLength(step.expected.length)
    step.expected.forEach((expected, i) => expect(lines[i]).toMatch(matcher(expected)))
  })
})
