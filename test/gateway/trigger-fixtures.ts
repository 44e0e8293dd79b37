/** The project of the trigger tests (and of the browser test). */
import { createHash } from 'node:crypto'

export const sha = (key: string) => createHash('sha256').update(key).digest('hex')

export const triggerProject: Record<string, string> = {
  'flowgate.yaml': `owner: alice
project: demo
users:
  - { name: alice, roles: [billing] }
  - { name: root, roles: [admin] }
  - { name: eve, roles: [support] }
apiKeys:
  - { name: alice-key, user: alice, sha256: ${sha('alice-key')} }
  - { name: root-key, user: root, sha256: ${sha('root-key')} }
  - { name: eve-key, user: eve, sha256: ${sha('eve-key')} }
workerGroups: [default, batch, idle]
`,
  'flows/echo.flow.yaml': `name: echo
start:
  wrapBody: true
  variables:
    - { name: input, type: string, input: true, default: none }
    - { name: n, type: number, input: true, default: 1 }
steps:
  - assign: { result: "{% {'input': $input, 'n': $n, 'body': $body, 'user': $context.userName, 'roles': $context.authorities} %}" }
`,
  'flows/plain.flow.yaml': `name: plain
start:
  variables:
    - { name: input, type: string, input: true, default: fallback }
steps:
  - assign: { result: "{% {'input': $input, 'body': $body} %}" }
`,
  'flows/nothing.flow.yaml': `name: nothing
steps: []
`,
  'flows/boom.flow.yaml': `name: boom
steps:
  - throw: { code: E_BOOM, message: it broke }
`,
  'flows/needs.flow.yaml': `name: needs
start:
  variables:
    - { name: x, type: number, input: true, required: true }
steps:
  - assign: { result: "{% $x %}" }
`,
}
