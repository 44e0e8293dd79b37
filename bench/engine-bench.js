// Micro-benchmark of the flow engine on the example flows: runs per second, median of rounds.
// Flows (and every expression in them) are compiled once, before timing; each round only runs.
//   npm run bench:engine            (after npm ci; builds first)
//   npm run bench:engine -- --quick (fewer rounds)
import { performance } from 'node:perf_hooks'
import { runFlow } from '../dist/engine/interpreter.js'
import { loadProjectDirectory } from '../dist/project/load-project.js'

const quick = process.argv.includes('--quick')
const rounds = quick ? 3 : 7
const roundMs = quick ? 300 : 1000

const load = await loadProjectDirectory(new URL('../examples/demo', import.meta.url).pathname)
if (load.kind !== 'loaded') throw new Error('the demo project does not load')
const { registry } = load.project

const cases = [
  { flow: 'greet', request: { inputs: { name: 'Ada' } } },
  { flow: 'check-token', request: { inputs: { token: 'let-me-in' }, headers: {} } },
  { flow: 'hello', request: { inputs: { who: 'Ada' }, body: { who: 'Ada' } } },
  {
    flow: 'create-order',
    request: {
      inputs: {
        items: [
          { sku: 'apple', qty: 4 },
          { sku: 'melon', qty: 1 },
        ],
      },
    },
  },
]

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

console.log(`node ${process.version}, ${rounds} rounds of ${roundMs} ms per flow`)
for (const { flow: name, request } of cases) {
  const flow = registry.get(name)
  const first = await runFlow(flow, request, { registry })
  if (first.kind !== 'completed') throw new Error(`${name} failed: ${JSON.stringify(first.error)}`)
  for (let i = 0; i < 2000; i++) await runFlow(flow, request, { registry }) // warm-up
  const rates = []
  for (let r = 0; r < rounds; r++) {
    let runs = 0
    const start = performance.now()
    while (performance.now() - start < roundMs) {
      for (let i = 0; i < 100; i++) await runFlow(flow, request, { registry })
      runs += 100
    }
    rates.push(runs / ((performance.now() - start) / 1000))
  }
  const m = median(rates)
  console.log(
    `${name.padEnd(14)} ${Math.round(m).toString().padStart(8)} runs/s  (${(1e6 / m).toFixed(1)} µs/run)`,
  )
}
