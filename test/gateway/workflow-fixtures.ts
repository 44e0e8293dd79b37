/** A project exercising Workflow Authentication: several applications, each one rule. */
import { createHash } from 'node:crypto'

const sha = (key: string) => createHash('sha256').update(key).digest('hex')

/** The business flow every application deploys: it reports what it saw. */
const business = `name: business
start:
  wrapBody: true
  variables:
    - { name: item, type: string, input: true }
    - { name: seen, type: object, output: true }
steps:
  - context: { into: seen }
  - assign: { seen: "{% $merge([$seen, {'item': $item, 'body': $body}]) %}" }
`

/** Authentication flow driven by its inputs, so each test picks the outcome. */
const decide = `name: decide
start:
  wrapBody: true
  wrapHeaders: true
  variables:
    - { name: token, type: string, input: true }
    - { name: application, type: string, input: true }
    - { name: stage, type: string, input: true }
    - { name: method, type: string, input: true }
    - { name: path, type: string, input: true }
    - { name: success, output: true }
    - { name: userName, output: true }
    - { name: authorities, output: true }
    - { name: context, output: true }
    - { name: responseStatusCode, type: number, output: true }
    - { name: responseBody, output: true }
    - { name: responseHeaders, type: object, output: true }
    - { name: responseContentType, type: string, output: true }
    - { name: responseFormat, type: string, output: true }
steps:
  - switch:
      value: "{% $token %}"
      cases:
        ok: [ { assign: { success: true } } ]
        ok-string: [ { assign: { success: "yes" } } ]
        ok-number: [ { assign: { success: 1 } } ]
        false: [ { assign: { success: false } } ]
        zero: [ { assign: { success: 0 } } ]
        empty: [ { assign: { success: "" } } ]
        "null": [ { assign: { success: null } } ]
        user: [ { assign: { success: true, userName: bob } } ]
        authorities-string: [ { assign: { success: true, authorities: auditor } } ]
        authorities-list: [ { assign: { success: true, userName: carol, authorities: [a, b] } } ]
        context: [ { assign: { success: true, context: { userName: dave, authorities: ops, tenant: t1, application: spoofed, stage: spoofed } } } ]
        context-override: [ { assign: { success: true, context: { userName: dave, authorities: [ops], tenant: t1 }, userName: null, authorities: "" } } ]
        falsy-user: [ { assign: { success: true, userName: "" } } ]
        echo: [ { assign: { success: true, userName: "{% $application & '|' & $stage & '|' & $method & '|' & $path & '|' & $body.application & '|' & $headers.'x-who' %}" } } ]
        refuse-mapped: [ { assign: { success: false, responseStatusCode: 403, responseBody: { denied: true } } } ]
        refuse-headers: [ { assign: { success: false, responseStatusCode: 429, responseBody: slow down, responseFormat: STRING, responseHeaders: { retry-after: "30" }, responseContentType: text/x-custom } } ]
        throw: [ { throw: { code: E_AUTH, message: auth exploded } } ]
      default: []
`

const hang = `name: hang
start:
  variables:
    - { name: target, type: string, input: true }
    - { name: success, type: boolean, output: true }
    - { name: answer, type: object }
steps:
  - http: { url: "{% $target %}", timeoutMs: 60000, into: answer }
  - assign: { success: true }
`

const application = (name: string, auth: string, extra = '') => `  - name: ${name}
    owner: alice
    stages: [dev, prod]
    endpoints:
      - { name: get, method: GET, path: /thing }
      - { name: post, method: POST, path: /thing }
      - { name: auth-get, method: GET, path: /auth }
      - { name: auth-post, method: POST, path: /auth }
    deployments:
      - { stage: dev, endpoint: get, flow: business }
      - { stage: prod, endpoint: get, flow: business }
      - { stage: prod, endpoint: post, flow: business }
${extra}    authentication:
${auth}
`

export const workflowProject: Record<string, string> = {
  'flowgate.yaml': `owner: alice
project: wf
users:
  - { name: alice, roles: [admin, billing] }
  - { name: kim, roles: [keyholder] }
apiKeys:
  - { name: k, user: kim, sha256: ${sha('kim-key')} }
applications:
${application(
  'get-auth',
  '      - { type: workflow, stage: current, endpoint: auth-get }',
  `      - { stage: dev, endpoint: auth-get, flow: decide }
      - { stage: prod, endpoint: auth-get, flow: decide }
`,
)}
${application(
  'post-auth',
  '      - { type: workflow, stage: prod, endpoint: auth-post }',
  `      - { stage: prod, endpoint: auth-post, flow: decide, errorStatusCode: 418 }
`,
)}
${application(
  'configured',
  '      - { type: workflow, stage: prod, endpoint: auth-get }',
  `      - stage: prod
        endpoint: auth-get
        flow: decide
        response:
          statusCode: 451
          body: "{% {'configured': true, 'token': $token} %}"
`,
)}
${application(
  'half-deployed',
  '      - { type: workflow, stage: current, endpoint: auth-get }',
  `      - { stage: prod, endpoint: auth-get, flow: decide }
`,
)}
${application(
  'with-key',
  `      - { type: apiKey }
      - { type: workflow, stage: prod, endpoint: auth-get }`,
  `      - { stage: prod, endpoint: auth-get, flow: decide }
`,
)}
${application(
  'hanging',
  '      - { type: workflow, stage: prod, endpoint: auth-get, timeoutMs: 300 }',
  `      - { stage: prod, endpoint: auth-get, flow: hang }
`,
)}`,
  'flows/business.flow.yaml': business,
  'flows/decide.flow.yaml': decide,
  'flows/hang.flow.yaml': hang,
}
