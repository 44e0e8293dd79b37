/** Each class of validation error in a flow file, with file, line, column and a plain message. */
import { describe, expect, it } from 'vitest'
import { loadFlowText } from '../../src/project/load-flow.js'
import { formatDiagnostic } from '../../src/project/source-document.js'

function problems(text: string, file = 'flows/greet.flow.yaml'): string[] {
  const load = loadFlowText(file, text)
  return load.kind === 'invalid' ? load.diagnostics.map(formatDiagnostic) : []
}

describe('flow validation', () => {
  it('names an unknown step with the list of known ones', () => {
    const text = `name: greet
start:
  variables:
    - { name: who, type: string }
steps:
  - assign: { who: x }
  - teleport: { to: mars }
`
    expect(problems(text)).toEqual([
      "flows/greet.flow.yaml:7:5 unknown step 'teleport' (expected one of assign, if, switch, forEach, while, break, continue, exit, throw, try, http, call, context, log)",
    ])
  })

  it('reports unknown keys at the key, with what was expected', () => {
    const text = `name: greet
colour: blue
start:
  variables:
    - { name: who, type: string, inptu: true }
steps: []
`
    expect(problems(text)).toEqual([
      "flows/greet.flow.yaml:2:1 unknown key 'colour' (expected one of name, description, limits, start, steps)",
      "flows/greet.flow.yaml:5:34 unknown key 'inptu' (expected one of name, type, default, input, required, output, description)",
    ])
  })

  it('reports wrong types and bad enum values', () => {
    const text = `name: greet
start:
  wrapBody: "yes"
  variables:
    - { name: who, type: text }
steps:
  - forEach: { items: [], as: x, do: {} }
  - http: { url: "http://x", timeoutMs: fast }
`
    expect(problems(text)).toEqual([
      "flows/greet.flow.yaml:3:13 'wrapBody' must be a boolean",
      'flows/greet.flow.yaml:5:26 \'type\' must be one of string, number, boolean, object, array, any (got "text")',
      "flows/greet.flow.yaml:7:38 'do' must be an array",
      "flows/greet.flow.yaml:8:41 'timeoutMs' must be an integer",
    ])
  })

  it('reports missing required keys and a step with two kinds', () => {
    const text = `steps:
  - assign: { result: 1 }
    log: { message: hi }
`
    expect(problems(text)).toEqual([
      "flows/greet.flow.yaml:1:1 missing required key 'name'",
      'flows/greet.flow.yaml:2:5 a step has exactly one kind, this one has assign and log',
    ])
  })

  it('reports an expression syntax error with its position', () => {
    const text = `name: greet
steps:
  - assign: { result: "{% 1 + %}" }
`
    expect(problems(text)).toEqual([
      expect.stringMatching(
        /^flows\/greet\.flow\.yaml:3:23 expression syntax error at character \d+: /,
      ),
    ])
  })

  it('reports names a step cannot use', () => {
    const text = `name: greet
start:
  variables:
    - { name: total, type: number, default: "zero" }
    - { name: total }
    - { name: sum }
    - { name: token, required: true }
steps:
  - break: {}
  - forEach: { items: [1], as: total, do: [] }
  - assign: { totl: 1 }
`
    expect(problems(text)).toEqual([
      "flows/greet.flow.yaml:4:45 the default of 'total' is not a number",
      "flows/greet.flow.yaml:5:15 variable 'total' is declared twice",
      "flows/greet.flow.yaml:6:15 the name 'sum' would hide the JSONata function $sum; choose another",
      "flows/greet.flow.yaml:7:32 'token' is required but not an input; add input: true",
      "flows/greet.flow.yaml:9:5 'break' outside of a loop",
      "flows/greet.flow.yaml:10:32 the name 'total' would hide a declared variable; choose another",
      expect.stringMatching(
        /^flows\/greet\.flow\.yaml:11:21 cannot assign 'totl': it is not a declared variable/,
      ),
    ])
  })

  it('reports YAML syntax errors and duplicate keys with their position', () => {
    expect(problems('name: greet\nsteps: [\n')).toEqual([
      expect.stringMatching(/^flows\/greet\.flow\.yaml:3:1 /),
    ])
    expect(problems('name: greet\nname: again\nsteps: []\n')).toEqual([
      expect.stringMatching(/^flows\/greet\.flow\.yaml:2:1 Map keys must be unique/),
    ])
  })

  it('reads JSON flow files with positions too', () => {
    const text = '{\n\t"name": "greet",\n\t"steps": [\n\t\t{ "jump": {} }\n\t]\n}\n'
    expect(problems(text, 'flows/greet.flow.json')).toEqual([
      expect.stringMatching(/^flows\/greet\.flow\.json:4:5 unknown step 'jump'/),
    ])
  })

  it('refuses files over 1 MiB without parsing them', () => {
    expect(problems(`name: x\nsteps: []\n#${'x'.repeat(1024 * 1024)}`)).toEqual([
      'flows/greet.flow.yaml:1:1 file is larger than 1048576 bytes',
    ])
  })
})
