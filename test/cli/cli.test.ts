/** The command line, black box: the real bin, real files, exit codes and output. */
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { flowgate, flowgateViaNode } from '../helpers/cli.js'
import { projectDir } from '../helpers/project-dir.js'

describe('flowgate --help', () => {
  it.each([[[]], [['run']], [['validate']], [['keys', 'create']]])('documents %j', (command) => {
    const { code, stdout } = flowgate([...command, '--help'])
    expect(code).toBe(0)
    expect(stdout).toMatch(/^Usage: flowgate/)
  })
  it('prints the version', () => {
    expect(flowgate(['--version']).stdout.trim()).toMatch(/^\d+\.\d+\.\d+/)
  })
  it('fails on an unknown command with a hint', () => {
    const { code, stderr } = flowgate(['teleport'])
    expect(code).toBe(1)
    expect(stderr).toContain("unknown command 'teleport'")
  })
})

describe('flowgate run', () => {
  it('prints the outputs of an example flow as JSON', () => {
    const { code, stdout } = flowgate([
      'run',
      'examples/demo/flows/greet.flow.yaml',
      '--input',
      '{"name":"Ada"}',
    ])
    expect(code).toBe(0)
    expect(JSON.parse(stdout)).toEqual({ greeting: 'Hello, Ada!', letters: 11 })
  })

  it('runs flows that call others found next to them', () => {
    const input = JSON.stringify({
      items: [
        { sku: 'apple', qty: 4 },
        { sku: 'melon', qty: 1 },
      ],
    })
    const { code, stdout, stderr } = flowgate([
      'run',
      'examples/demo/flows/create-order.flow.yaml',
      '--input',
      input,
      '--context',
      '{"userName":"ada"}',
    ])
    expect(code).toBe(0)
    expect(JSON.parse(stdout)).toMatchObject({ total: 5, order: { by: 'ada' } })
    expect(stderr).toContain('"msg":"order total 5"')
  })

  it('exits 1 with the structured error when the flow fails', () => {
    const { code, stdout, stderr } = flowgate([
      'run',
      'examples/demo/flows/create-order.flow.yaml',
      '-i',
      '{"items":[{"sku":"kiwi","qty":1}]}',
    ])
    expect(code).toBe(1)
    expect(stdout).toBe('')
    expect(JSON.parse(stderr.slice(stderr.indexOf('{\n')))).toEqual({
      error: {
        code: 'E_UNKNOWN_SKU',
        message: 'no such product: kiwi',
        flow: 'price-of',
        step: 'steps[1].then[0]',
        details: { sku: 'kiwi' },
      },
    })
  })

  it('exits 1 naming a missing required input', () => {
    const { code, stderr } = flowgate(['run', 'examples/demo/flows/price-of.flow.yaml'])
    expect(code).toBe(1)
    expect(stderr).toContain('"code": "INPUT_REQUIRED"')
  })

  it('exits 1 on input that is not a JSON object', () => {
    expect(
      flowgate(['run', 'examples/demo/flows/greet.flow.yaml', '--input', '{oops']).stderr,
    ).toContain('--input is not valid JSON')
    expect(
      flowgate(['run', 'examples/demo/flows/greet.flow.yaml', '--input', '[1]']).stderr,
    ).toContain('--input must be a JSON object')
  })

  it('exits 1 with file, line and column when the flow file is invalid', () => {
    const dir = projectDir({ 'bad.flow.yaml': 'name: bad\nsteps:\n  - teleport: {}\n' })
    const { code, stderr } = flowgate(['run', `${dir}/bad.flow.yaml`])
    expect(code).toBe(1)
    expect(stderr).toContain(`${dir}/bad.flow.yaml:3:5 unknown step 'teleport'`)
  })

  it('starts Node so that a catastrophic regular expression cannot freeze it', () => {
    const dir = projectDir({
      're.flow.yaml': `name: re\nsteps:\n  - assign: { result: "{% $match('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!', /(a+)+$/) %}" }\n`,
    })
    // Without the V8 flag this takes hours; both ways of starting the bin must finish.
    for (const result of [
      flowgate(['run', `${dir}/re.flow.yaml`], { timeoutMs: 15_000 }),
      flowgateViaNode(['run', `${dir}/re.flow.yaml`], { timeoutMs: 15_000 }),
    ]) {
      expect(result.code).toBe(0)
      expect(JSON.parse(result.stdout)).toEqual({})
    }
  })

  it('ends a flow that loops forever with a clear error', () => {
    const dir = projectDir({
      'loop.flow.yaml':
        'name: loop\nlimits: { maxSteps: 10000 }\nsteps:\n  - while: true\n    do: []\n',
    })
    const { code, stderr } = flowgate(['run', `${dir}/loop.flow.yaml`])
    expect(code).toBe(1)
    expect(stderr).toContain('"code": "STEP_LIMIT_EXCEEDED"')
  })
})

describe('flowgate validate', () => {
  it('exits 0 on the example project', () => {
    const { code, stdout } = flowgate(['validate', 'examples/demo'])
    expect(code).toBe(0)
    expect(stdout).toContain('examples/demo: valid (5 flows, 1 application, 0 warnings)')
  })

  it('exits 1 on a broken project and lists every problem with file and line', () => {
    const dir = projectDir({
      'flowgate.yaml': `owner: alice
project: demo
applications:
  - name: shop
    owner: alice
    stages: [prod]
    endpoints:
      - { name: e, method: GET, path: /e }
    deployments:
      - { stage: prod, endpoint: e, flow: missing }
    authentication:
      - { type: apiKey }
`,
      'flows/a.flow.yaml': 'name: a\nsteps:\n  - assign: { nope: 1 }\n',
      'flows/b.flow.yaml': 'name: b\nsteps:\n  - assign: { result: "{% ( %}" }\n',
    })
    const { code, stderr } = flowgate(['validate', dir])
    expect(code).toBe(1)
    const lines = stderr.trim().split('\n')
    expect(lines).toEqual([
      `${dir}/flowgate.yaml:10:43 application 'shop': deployment names unknown flow 'missing'`,
      expect.stringMatching(new RegExp(`^${dir}/flows/a\\.flow\\.yaml:3:21 cannot assign 'nope'`)),
      expect.stringMatching(
        new RegExp(`^${dir}/flows/b\\.flow\\.yaml:3:23 expression syntax error`),
      ),
      `${dir}: invalid (3 errors, 0 warnings)`,
    ])
  })

  it('prints warnings but exits 0 when there is no error', () => {
    const dir = projectDir({
      'flowgate.yaml':
        'owner: alice\nproject: p\napplications:\n  - { name: open, owner: alice, stages: [dev] }\n',
    })
    const { code, stdout } = flowgate(['validate', dir])
    expect(code).toBe(0)
    expect(stdout).toContain('warning: application open: every endpoint is public')
  })

  it('can print its findings as JSON', () => {
    const { code, stdout } = flowgate(['validate', 'examples/demo', '--json'])
    expect(code).toBe(0)
    expect(JSON.parse(stdout)).toEqual({ valid: true, diagnostics: [] })
  })
})

describe('flowgate keys create', () => {
  it('prints a new key once with its sha256 and the flowgate.yaml entry', () => {
    const { code, stdout } = flowgate(['keys', 'create', '--user', 'alice', '--json'])
    expect(code).toBe(0)
    const { key, sha256, user } = JSON.parse(stdout) as {
      key: string
      sha256: string
      user: string
    }
    expect(user).toBe('alice')
    expect(createHash('sha256').update(key).digest('hex')).toBe(sha256)
    const text = flowgate(['keys', 'create', '--user', 'bob']).stdout
    expect(text).toMatch(/sha256: [0-9a-f]{64}/)
    expect(text).toContain('user: bob')
  })
})

describe('flowgate validate: settings warnings of workflow authentication', () => {
  it('prints a warning per stage lacking the authentication deployment, and exits 0', () => {
    const dir = projectDir({
      'flowgate.yaml': `owner: alice
project: p
applications:
  - name: shop
    owner: alice
    stages: [dev, qa, prod]
    endpoints:
      - { name: auth, method: GET, path: /auth }
    deployments:
      - { stage: prod, endpoint: auth, flow: a }
    authentication:
      - { type: workflow, stage: current, endpoint: auth }
`,
      'flows/a.flow.yaml': 'name: a\nsteps: []\n',
    })
    const { code, stdout } = flowgate(['validate', dir])
    expect(code).toBe(0)
    expect(stdout).toContain(
      "warning: application shop: workflow authentication points at stage 'dev' and endpoint 'auth', where no flow is deployed",
    )
    expect(stdout).toContain(
      "warning: application shop: workflow authentication points at stage 'qa' and endpoint 'auth', where no flow is deployed",
    )
    expect(stdout).toContain('valid (1 flow, 1 application, 2 warnings)')
  })
})
