/**
 * Seed 4.2 GET rule 4: the GET trigger URL embedded in a web page triggers the flow the same
 * way. A page served from another origin fetches the trigger URL in headless Chromium and
 * shows the result; CORS (FLOWGATE_CORS_ORIGINS) lets it read the answer, and without it
 * the browser refuses. `.ci/run` installs Debian's chromium; CHROMIUM_PATH may point elsewhere.
 */
import { existsSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { chromium, type Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startGateway, type TestGateway } from '../helpers/gateway.js'
import { triggerProject } from '../gateway/trigger-fixtures.js'

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

let pageServer: Server
let pageOrigin = ''
let browser: Browser
let open: TestGateway
let closed: TestGateway
let openBase = ''
let closedBase = ''

beforeAll(async () => {
  if (!existsSync(executablePath)) {
    throw new Error(
      `Chromium is needed for this test: apt-get install chromium (or set CHROMIUM_PATH); not found at ${executablePath}`,
    )
  }
  pageServer = createServer((req, res) => {
    const target = new URL(req.url ?? '/', 'http://x').searchParams.get('trigger') ?? ''
    res.setHeader('content-type', 'text/html; charset=utf-8')
    res.end(`<!doctype html>
<html><body>
<p id="out">waiting</p>
<script>
  fetch(${JSON.stringify(target)})
    .then((response) => response.json())
    .then((answer) => { document.getElementById('out').textContent = JSON.stringify(answer) })
    .catch((error) => { document.getElementById('out').textContent = 'refused: ' + error.message })
</script>
</body></html>`)
  })
  await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve))
  pageOrigin = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`
  open = await startGateway(triggerProject, { FLOWGATE_CORS_ORIGINS: pageOrigin })
  closed = await startGateway(triggerProject)
  openBase = await open.listen()
  closedBase = await closed.listen()
  browser = await chromium.launch({
    executablePath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await open?.close()
  await closed?.close()
  pageServer?.close()
})

async function pageText(gatewayBase: string): Promise<string> {
  const trigger = `${gatewayBase}/api/v1/trigger/alice/demo/echo?api_key=alice-key&sync=true&input=from-the-page`
  const page = await browser.newPage()
  try {
    await page.goto(`${pageOrigin}/?trigger=${encodeURIComponent(trigger)}`)
    await page.waitForFunction(
      "document.getElementById('out').textContent !== 'waiting'",
      undefined,
      { timeout: 15_000 },
    )
    return (await page.textContent('#out')) ?? ''
  } finally {
    await page.close()
  }
}

describe('a web page embedding the GET trigger URL', () => {
  it('triggers the flow and reads {"result": ...} when CORS allows the page origin', async () => {
    const text = await pageText(openBase)
    expect(JSON.parse(text)).toEqual({
      result: {
        input: 'none',
        n: 1,
        body: { input: 'from-the-page' },
        user: 'alice',
        roles: ['billing'],
      },
    })
  }, 30_000)

  it('cannot read the answer when CORS is off (the default)', async () => {
    expect(await pageText(closedBase)).toMatch(/^refused: /)
  }, 30_000)
})
