/** The project most gateway tests serve: public, so each test looks at one rule at a time. */
export const publicProject: Record<string, string> = {
  'flowgate.yaml': `owner: alice
project: demo
users:
  - { name: alice, roles: [admin, billing] }
applications:
  - name: shop
    owner: alice
    stages: [dev, prod]
    endpoints:
      - { name: echo-get, method: GET, path: /echo }
      - { name: echo-post, method: POST, path: /echo }
      - { name: echo-delete, method: DELETE, path: /echo }
      - { name: order, method: GET, path: "/orders/{id}" }
      - { name: files, method: GET, path: "/files/*" }
      - { name: implicit, method: POST, path: /implicit }
      - { name: mapped, method: POST, path: /mapped }
      - { name: configured, method: POST, path: /configured }
      - { name: fails, method: POST, path: /fails }
      - { name: undeployed, method: PUT, path: /echo }
      - { name: ctx, method: GET, path: /ctx }
    deployments:
      - { stage: prod, endpoint: echo-get, flow: echo }
      - { stage: prod, endpoint: echo-post, flow: echo }
      - { stage: prod, endpoint: echo-delete, flow: echo }
      - { stage: prod, endpoint: order, flow: order }
      - { stage: prod, endpoint: files, flow: order }
      - { stage: prod, endpoint: implicit, flow: implicit }
      - { stage: prod, endpoint: mapped, flow: mapped }
      - stage: prod
        endpoint: configured
        flow: mapped
        response:
          statusCode: "{% $code ? $code : 202 %}"
          body: "{% {'configured': $payload} %}"
      - { stage: prod, endpoint: fails, flow: fails }
      - { stage: dev, endpoint: fails, flow: fails, errorStatusCode: 422 }
      - { stage: prod, endpoint: ctx, flow: ctx }
`,
  'flows/echo.flow.yaml': `name: echo
start:
  wrapHeaders: true
  variables:
    - { name: n, type: number, input: true }
    - { name: flag, type: boolean, input: true }
    - { name: list, type: array, input: true }
    - { name: text, type: string, input: true }
    - { name: required, type: string, input: true, required: false }
    - { name: got, type: object, output: true }
steps:
  - assign:
      got: "{% {'n': $n, 'flag': $flag, 'list': $list, 'text': $text, 'header': $headers.'x-demo'} %}"
`,
  'flows/order.flow.yaml': `name: order
start:
  variables:
    - { name: id, type: number, input: true }
    - { name: wildcard, type: string, input: true }
    - { name: order, type: object, output: true }
steps:
  - assign: { order: "{% {'id': $id, 'rest': $wildcard} %}" }
`,
  'flows/implicit.flow.yaml': `name: implicit
start:
  wrapBody: true
  variables:
    - { name: application, type: string, input: true }
    - { name: stage, type: string, input: true }
    - { name: method, type: string, input: true }
    - { name: path, type: string, input: true }
    - { name: qty, type: number, input: true, required: true }
    - { name: seen, type: object, output: true }
steps:
  - assign:
      seen: "{% {'application': $application, 'stage': $stage, 'method': $method, 'path': $path, 'bodyApplication': $body.application, 'qty': $qty} %}"
`,
  'flows/mapped.flow.yaml': `name: mapped
start:
  variables:
    - { name: code, type: number, input: true }
    - { name: format, type: string, input: true }
    - { name: payload, input: true }
    - { name: headers, type: object, input: true }
    - { name: contentType, type: string, input: true }
    - { name: responseStatusCode, type: number, output: true }
    - { name: responseBody, output: true }
    - { name: responseFormat, type: string, output: true }
    - { name: responseHeaders, type: object, output: true }
    - { name: responseContentType, type: string, output: true }
    - { name: other, type: string, output: true, default: kept }
steps:
  - assign:
      responseStatusCode: "{% $code %}"
      responseBody: "{% $payload %}"
      responseFormat: "{% $format %}"
      responseHeaders: "{% $headers %}"
      responseContentType: "{% $contentType %}"
`,
  'flows/fails.flow.yaml': `name: fails
start:
  variables:
    - { name: kind, type: string, input: true, default: throw }
steps:
  - if: "{% $kind = 'throw' %}"
    then:
      - id: refuse
        throw: { code: E_REFUSED, message: no way, details: { why: test } }
  - assign: { result: "{% $number('x') %}" }
`,
  'flows/ctx.flow.yaml': `name: ctx
start:
  variables:
    - { name: c, type: object, output: true }
steps:
  - context: { into: c }
`,
}
