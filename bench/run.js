// npm run bench [-- --quick] [-- --workers 2] [-- --unpinned]
//
// Measures flowgate's hot path against a bare node:http server doing the equivalent work, in
// the same run, on this machine. Both servers are up, pinned to core 0, and only one is under
// load at a time; wrk (a C load generator: a JavaScript one would be the bottleneck on 2
// cores) runs pinned to core 1. After a warm-up, every scenario runs at concurrency 1 and 32,
// three times (once with --quick), each run right after a baseline run; the median is
// reported with its ratio to the median of those baseline runs, so that the machine's drift
// over the run stays out of the ratios. Results go to bench/results/latest.json and latest.md
// (not committed; reference.md is).
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const quick = args.includes('--quick')
const workersAt = args.indexOf('--workers')
const gatewayWorkers = workersAt === -1 ? 1 : Number(args[workersAt + 1])
const runs = quick ? 1 : 3
const seconds = quick ? 3 : 10
const warmup = quick ? 1 : 3
const concurrencies = [1, 32]
const twoCores = cpus().length >= 2

const scenarios = [
  { name: 'business', method: 'POST', path: '/open/prod/orders' },
  { name: 'apikey-business', method: 'POST', path: '/keyed/prod/orders', key: 'bench-key' },
  {
    name: 'workflow-auth-business',
    method: 'POST',
    path: '/guarded/prod/orders',
    token: 'good-token',
  },
  {
    name: 'auth-refused',
    method: 'POST',
    path: '/guarded/prod/orders',
    token: 'bad-token',
    refused: true,
  },
  {
    name: 'trigger-post-sync',
    method: 'POST',
    path: '/api/v1/trigger/bench/bench/business?sync=true',
    key: 'bench-key',
  },
  {
    name: 'trigger-get-sync',
    method: 'GET',
    path: '/api/v1/trigger/bench/bench/business?sync=true&sku=A1&qty=3',
    key: 'bench-key',
  },
]

if (spawnSync('wrk', ['--version']).error) {
  console.error(
    'wrk is needed: apt-get install wrk (Debian), or build it from https://github.com/wg/wrk',
  )
  process.exit(1)
}

// With several gateway processes the server needs both cores: nothing is pinned then, and the
// load generator shares the machine with the server (the report says so).
// --unpinned measures one process the same way, for a like-for-like scaling figure.
const pinned = twoCores && gatewayWorkers === 1 && !args.includes('--unpinned')
const placement = pinned
  ? 'server on core 0, wrk on core 1'
  : 'nothing pinned: server and wrk share the cores'
const pin = (core, command, commandArgs) =>
  pinned ? ['taskset', ['-c', String(core), command, ...commandArgs]] : [command, commandArgs]

function startServer(label, command, commandArgs, port, env = {}) {
  const [bin, binArgs] = pin(0, command, commandArgs)
  const started = performance.now()
  const child = spawn(bin, binArgs, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (c) => (stderr += c.toString()))
  const ready = (async () => {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${label} exited: ${stderr}`)
      try {
        const response = await fetch(`http://127.0.0.1:${port}/healthz`)
        if (response.ok) return performance.now() - started
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
  })()
  return { child, ready, stderr: () => stderr }
}

function wrk(url, scenario, connections, duration) {
  const [bin, binArgs] = pin(1, 'wrk', [
    '-t1',
    `-c${connections}`,
    `-d${duration}s`,
    '--latency',
    '-s',
    join(root, 'bench/wrk/request.lua'),
    url,
  ])
  const result = spawnSync(bin, binArgs, {
    encoding: 'utf8',
    env: {
      ...process.env,
      BENCH_METHOD: scenario.method,
      BENCH_API_KEY: scenario.key ?? '',
      BENCH_TOKEN: scenario.token ?? '',
    },
  })
  const line = result.stdout.split('\n').find((l) => l.startsWith('BENCH_JSON '))
  if (!line) throw new Error(`wrk failed: ${result.stdout}${result.stderr}`)
  const raw = JSON.parse(line.slice('BENCH_JSON '.length))
  return {
    rps: raw.requests / (raw.duration_us / 1e6),
    p50Ms: raw.p50_us / 1000,
    p99Ms: raw.p99_us / 1000,
    errors: raw.errors,
    non2xx: raw.non2xx,
  }
}

/** Peak resident memory of a process and its children (cluster workers), in MB. */
function peakRssMb(pid) {
  const pids = [pid, ...childPids(pid)]
  let total = 0
  for (const p of pids) {
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8')
      total += Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024
    } catch {
      // gone
    }
  }
  return total
}

function childPids(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number)
  } catch {
    return []
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const round = (n) => Math.round(n * 1000) / 1000

function summary(name, concurrency, samples, pid) {
  return {
    name,
    concurrency,
    rps: Math.round(median(samples.map((s) => s.rps))),
    p50Ms: round(median(samples.map((s) => s.p50Ms))),
    p99Ms: round(median(samples.map((s) => s.p99Ms))),
    errors: samples.reduce((n, s) => n + s.errors, 0),
    non2xx: samples.reduce((n, s) => n + s.non2xx, 0),
    rssMb: Math.round(peakRssMb(pid)),
  }
}

// The baseline answers what the business scenario asks, by hand.
const baselineScenario = { name: 'baseline', method: 'POST', path: '/orders', key: 'bench-key' }

/**
 * One scenario: every flowgate sample follows a baseline sample taken just before it, and the
 * ratio is the median of flowgate's over the median of those baseline samples. The machine's
 * speed drifts over a run (it is shared); pairing keeps that drift out of the ratios.
 */
function measure(target, baseline, scenario) {
  const rows = []
  wrk(target.base + scenario.path, scenario, 32, warmup)
  for (const concurrency of concurrencies) {
    const samples = []
    const baselineSamples = []
    for (let i = 0; i < runs; i++) {
      baselineSamples.push(
        wrk(baseline.base + baselineScenario.path, baselineScenario, concurrency, seconds),
      )
      samples.push(wrk(target.base + scenario.path, scenario, concurrency, seconds))
    }
    const row = summary(scenario.name, concurrency, samples, target.pid)
    const base = summary('baseline', concurrency, baselineSamples, baseline.pid)
    row.baselineRps = base.rps
    row.ratio = round(row.rps / base.rps)
    rows.push({ row, baselineSamples })
    console.error(
      `  ${scenario.name} c=${concurrency}: ${row.rps} req/s (baseline ${base.rps}, ratio ${row.ratio.toFixed(2)}), p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms`,
    )
  }
  return rows
}

console.error(
  `flowgate bench: ${quick ? 'quick, ' : ''}${runs} run(s) of ${seconds}s per scenario and concurrency, each after a baseline run; ${placement}`,
)

// 1. The baseline server, which stays up (idle between its samples) for the whole run.
const baselinePort = 9301
const baselineServer = startServer(
  'baseline',
  process.execPath,
  [join(root, 'bench/baseline-server.js'), String(baselinePort)],
  baselinePort,
)
await baselineServer.ready
const baseline = { base: `http://127.0.0.1:${baselinePort}`, pid: baselineServer.child.pid }
wrk(baseline.base + baselineScenario.path, baselineScenario, 32, warmup)

// 2. flowgate: production build, one process (or --workers N), the embedded store, logs at
// their production level (info, to a discarded stdout), execution recording on.
const flowgatePort = 9302
const data = mkdtempSync(join(tmpdir(), 'flowgate-bench-'))
// The bin itself, as users start it: its shebang sets the Node flags the product runs with.
const flowgateArgs = [
  'serve',
  '--project',
  join(root, 'bench/project'),
  '--data',
  data,
  '--port',
  String(flowgatePort),
  '--log-level',
  'info',
  ...(gatewayWorkers > 1 ? ['--workers', String(gatewayWorkers)] : []),
]
const flowgate = startServer(
  'flowgate',
  join(root, 'bin/flowgate.js'),
  flowgateArgs,
  flowgatePort,
  {
    NODE_ENV: 'production',
  },
)
const startupMs = Math.round(await flowgate.ready)
console.error(`flowgate (ready in ${startupMs} ms), each scenario after a baseline run:`)
const target = { base: `http://127.0.0.1:${flowgatePort}`, pid: flowgate.child.pid }
const measured = []
for (const scenario of scenarios) measured.push(...measure(target, baseline, scenario))

// The baseline's rows: every baseline sample of the run, by concurrency (read while the
// baseline still runs, for its peak RSS).
const baselineRows = concurrencies.map((concurrency) => {
  const samples = measured
    .filter((m) => m.row.concurrency === concurrency)
    .flatMap((m) => m.baselineSamples)
  const row = summary('baseline', concurrency, samples, baseline.pid)
  return { ...row, baselineRps: row.rps, ratio: 1 }
})
flowgate.child.kill('SIGTERM')
baselineServer.child.kill('SIGTERM')
const scenariosOut = [...baselineRows, ...measured.map((m) => m.row)]
const results = {
  node: process.version,
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model ?? 'unknown',
  date: new Date().toISOString(),
  quick,
  gatewayProcesses: gatewayWorkers,
  placement,
  runsPerPoint: runs,
  secondsPerRun: seconds,
  startupMs,
  scenarios: scenariosOut,
}
mkdirSync(join(root, 'bench/results'), { recursive: true })
writeFileSync(join(root, 'bench/results/latest.json'), `${JSON.stringify(results, null, 2)}\n`)
const table = [
  `flowgate bench, ${results.date}: node ${results.node}, ${results.cpus} CPUs (${results.cpuModel}), ${gatewayWorkers} gateway process(es), ${placement}, ${runs} run(s) of ${seconds}s, median; ready ${startupMs} ms after start`,
  '',
  '| scenario | concurrency | req/s | baseline req/s | ratio | p50 ms | p99 ms | errors | non-2xx | peak RSS MB |',
  '|---|---|---|---|---|---|---|---|---|---|',
  ...scenariosOut.map(
    (r) =>
      `| ${r.name} | ${r.concurrency} | ${r.rps} | ${r.baselineRps} | ${r.ratio.toFixed(2)} | ${r.p50Ms} | ${r.p99Ms} | ${r.errors} | ${r.non2xx} | ${r.rssMb} |`,
  ),
]
writeFileSync(join(root, 'bench/results/latest.md'), `${table.join('\n')}\n`)
console.log(table.join('\n'))
