// The practical limit of Node on this machine: a bare node:http server doing by hand what
// the business scenario asks of flowgate: read and parse the JSON body, check a header,
// compute, and answer JSON.
import { createServer } from 'node:http'

const port = Number(process.argv[2] ?? 9001)
const server = createServer((req, res) => {
  if (req.url === '/healthz') {
    res.end('{"status":"ok"}')
    return
  }
  let body = ''
  req.setEncoding('utf8')
  req.on('data', (chunk) => (body += chunk))
  req.on('end', () => {
    let input
    try {
      input = body === '' ? {} : JSON.parse(body)
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' })
      res.end('{"error":"bad json"}')
      return
    }
    if (req.headers['x-api-key'] !== 'bench-key') {
      res.writeHead(401, { 'content-type': 'application/json' })
      res.end('{"error":"unauthorized"}')
      return
    }
    const total = 2.5 * (input.qty ?? 1)
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
    res.end(
      JSON.stringify({ result: { sku: input.sku, total, size: total > 100 ? 'big' : 'small' } }),
    )
  })
})
server.keepAliveTimeout = 72_000
server.listen(port, '127.0.0.1')
