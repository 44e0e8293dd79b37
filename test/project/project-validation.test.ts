/** Project loading: references, names, hashes and warnings, all reported at once. */
import { describe, expect, it } from 'vitest'
import { loadProjectDirectory } from '../../src/project/load-project.js'
import { formatDiagnostic } from '../../src/project/source-document.js'
import { projectDir } from '../helpers/project-dir.js'

const okFlow = (name: string) => `name: ${name}\nsteps:\n  - assign: { result: 1 }\n`

async function diagnostics(
  files: Record<string, string>,
): Promise<{ valid: boolean; lines: string[] }> {
  const dir = projectDir(files)
  const load = await loadProjectDirectory(dir)
  const list = load.kind === 'loaded' ? load.warnings : load.diagnostics
  return {
    valid: load.kind === 'loaded',
    lines: list.map((d) => formatDiagnostic(d).replace(`${dir}/`, '')),
  }
}

describe('project validation', () => {
  it('loads the demo project without problems', async () => {
    const load = await loadProjectDirectory('examples/demo')
    expect(load.kind).toBe('loaded')
    expect(load.kind === 'loaded' && load.warnings).toEqual([])
  })

  it('reports schema errors of the project file with line and column', async () => {
    const { valid, lines } = await diagnostics({
      'flowgate.yaml': `owner: alice
project: demo
users:
  - { name: alice, roles: [admin] }
  - { name: alice }
apiKeys:
  - { name: ci, user: carol, sha256: 5E884898DA28047151D0E56F8DC6292773603D0D6AABBDD62A11EF721D1542D8 }
applications:
  - name: admin
    owner: alice
    stages: [dev, dev]
    endpoints:
      - { name: a, method: GET, path: /a }
      - { name: a, method: POST, path: '/b/{id}/{id}' }
    deployments:
      - { stage: qa, endpoint: nope, flow: ghost }
    authentication:
      - { type: workflow, stage: staging, endpoint: missing }
`,
      'flows/greet.flow.yaml': okFlow('greet'),
    })
    expect(valid).toBe(false)
    // Schema errors come first; references are checked once the document has the right shape.
    expect(lines).toEqual([
      "flowgate.yaml:7:38 'sha256' must be the sha256 of the key as 64 lower-case hex characters (flowgate keys create prints it)",
    ])
  })

  it('checks references once the schema passes', async () => {
    const { valid, lines } = await diagnostics({
      'flowgate.yaml': `owner: alice
project: demo
users:
  - { name: alice, roles: [admin] }
  - { name: alice }
apiKeys:
  - { name: ci, user: carol, sha256: 5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8 }
applications:
  - name: admin
    owner: dave
    stages: [dev, dev]
    endpoints:
      - { name: a, method: GET, path: /a }
      - { name: a, method: POST, path: '/b/{id}/{id}' }
    deployments:
      - { stage: qa, endpoint: nope, flow: ghost }
      - { stage: dev, endpoint: a, flow: greet, response: { statusCode: 99, format: XML, body: "{% $x + %}" } }
      - { stage: dev, endpoint: a, flow: greet }
    authentication:
      - { type: workflow, stage: staging, endpoint: missing }
`,
      'flows/greet.flow.yaml': okFlow('greet'),
    })
    expect(valid).toBe(false)
    expect(lines).toEqual([
      "flowgate.yaml:5:13 duplicate user 'alice'",
      "flowgate.yaml:7:23 API key 'ci': unknown user 'carol'",
      "flowgate.yaml:9:11 application 'admin': the name is reserved (api, admin, console, healthz, readyz, metrics)",
      "flowgate.yaml:10:12 application 'admin': unknown owner 'dave'",
      "flowgate.yaml:11:19 duplicate stage 'dev'",
      "flowgate.yaml:14:17 duplicate endpoint 'a'",
      "flowgate.yaml:14:40 endpoint 'a': path uses the parameter {id} twice",
      "flowgate.yaml:16:18 application 'admin': deployment names unknown stage 'qa'",
      "flowgate.yaml:16:32 application 'admin': deployment names unknown endpoint 'nope'",
      "flowgate.yaml:16:44 application 'admin': deployment names unknown flow 'ghost'",
      "flowgate.yaml:17:73 'statusCode' must be an integer from 200 to 599 or an expression",
      "flowgate.yaml:17:85 'format' must be one of JSON, STRING, BINARY or an expression",
      'flowgate.yaml:17:96 expression syntax error at character 6: Unexpected end of expression',
      "flowgate.yaml:18:9 application 'admin': endpoint 'a' is deployed twice on stage 'dev'",
      "flowgate.yaml:20:34 application 'admin': workflow authentication names unknown stage 'staging' (a stage name or current)",
      "flowgate.yaml:20:53 application 'admin': workflow authentication names unknown endpoint 'missing'",
    ])
  })

  it('reports call cycles and calls to unknown flows at the call step', async () => {
    const { valid, lines } = await diagnostics({
      'flowgate.yaml': 'owner: alice\nproject: demo\n',
      'flows/a.flow.yaml': 'name: a\nsteps:\n  - call: { flow: b }\n',
      'flows/b.flow.yaml': 'name: b\nsteps:\n  - call: { flow: a }\n  - call: { flow: zed }\n',
    })
    expect(valid).toBe(false)
    expect(lines).toEqual([
      'flows/b.flow.yaml:3:19 calls form a cycle: a -> b -> a',
      "flows/b.flow.yaml:4:19 calls flow 'zed', which does not exist",
    ])
  })

  it('reports duplicate flow names, flow errors and project errors together', async () => {
    const { valid, lines } = await diagnostics({
      'flowgate.yaml': 'owner: alice\nproject: demo\nextra: 1\n',
      'flows/a.flow.yaml': okFlow('a'),
      'flows/b.flow.yaml': okFlow('a'),
      'flows/c.flow.yaml': 'name: c\nsteps:\n  - fly: {}\n',
    })
    expect(valid).toBe(false)
    expect(lines).toEqual([
      "flowgate.yaml:3:1 unknown key 'extra' (expected one of owner, project, users, apiKeys, workerGroups, applications)",
      "flows/b.flow.yaml:1:7 flow 'a' is also defined in " +
        lines[1]!.split(' is also defined in ')[1],
      expect.stringMatching(/^flows\/c\.flow\.yaml:3:5 unknown step 'fly'/),
    ])
  })

  it('warns, without failing, about public applications and authentication pairs with no deployment', async () => {
    const { valid, lines } = await diagnostics({
      'flowgate.yaml': `owner: alice
project: demo
applications:
  - name: open
    owner: alice
    stages: [dev]
  - name: shop
    owner: alice
    stages: [dev, prod]
    endpoints:
      - { name: auth, method: GET, path: /auth }
    deployments:
      - { stage: dev, endpoint: auth, flow: a }
    authentication:
      - { type: workflow, stage: current, endpoint: auth }
`,
      'flows/a.flow.yaml': okFlow('a'),
      'flows/notes.yaml': 'not a flow',
    })
    expect(valid).toBe(true)
    expect(lines).toEqual([
      'flows/notes.yaml:1:1 warning: ignored: flow files are named <name>.flow.yaml',
      'flowgate.yaml:4:11 warning: application open: every endpoint is public',
      "flowgate.yaml:15:9 warning: application shop: workflow authentication points at stage 'prod' and endpoint 'auth', where no flow is deployed",
    ])
  })

  it('reports a missing project file', async () => {
    const { valid, lines } = await diagnostics({ 'flows/a.flow.yaml': okFlow('a') })
    expect(valid).toBe(false)
    expect(lines).toEqual([
      'flowgate.yaml:1:1 missing project file (flowgate.yaml, flowgate.yml or flowgate.json)',
    ])
  })
})
