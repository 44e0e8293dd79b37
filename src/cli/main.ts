/**
 * The `flowgate` command line. Each command is a function of its arguments and an IO; this
 * file only declares them (with their help) and maps outcomes to exit codes.
 */
import { readFileSync } from 'node:fs'
import { Command, CommanderError } from 'commander'
// Commands are imported when they run: `flowgate validate` need not load the HTTP server.
import type { RunCommandOptions } from './commands/run.js'
import type { ServeOptions } from './commands/serve.js'
import type { WorkerOptions } from './commands/worker.js'
import { processIO, type CliIO } from './io.js'

const { version } = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
) as { version: string }

export async function main(argv: readonly string[], io: CliIO = processIO): Promise<number> {
  let exitCode = 0
  const program = new Command()
    .name('flowgate')
    .description('An open-source flow gateway: declarative flows served over HTTP.')
    .version(version)
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .showHelpAfterError('(run with --help for usage)')

  program
    .command('run')
    .description('Run a flow locally and print its outputs as JSON')
    .argument('<flow-file>', 'a .flow.yaml (or .json) file; flows it calls are found next to it')
    .option('-i, --input <json>', 'input values as a JSON object', undefined)
    .option('--input-file <file>', 'read the input JSON object from a file')
    .option('--headers <json>', 'request headers as a JSON object (for wrap headers)')
    .option('--context <json>', 'the run context as a JSON object (userName, authorities, ...)')
    .option('--timeout <ms>', "cap the flow's time limit, in milliseconds")
    .option(
      '--log-level <level>',
      'lowest level of log steps printed to stderr (debug, info, warn, error)',
      'info',
    )
    .addHelpText(
      'after',
      `\nExample:\n  flowgate run examples/demo/flows/greet.flow.yaml --input '{"name":"Ada"}'`,
    )
    .action(async (file: string, options: RunCommandOptions) => {
      const { runCommand } = await import('./commands/run.js')
      exitCode = await runCommand(file, options, io)
    })

  program
    .command('serve')
    .description('Serve a project over HTTP on the embedded store')
    .option(
      '-p, --project <dir>',
      'the project to apply and serve (without it, serve what the store holds)',
    )
    .option('--port <port>', 'port to listen on (env PORT; default 8080)')
    .option('--host <host>', 'address to listen on (env HOST; default 127.0.0.1)')
    .option(
      '--data <dir>',
      'data directory of the embedded store (env FLOWGATE_DATA; default ./.flowgate)',
    )
    .option('--watch', 're-apply the project when its files change')
    .option(
      '--body-limit <bytes>',
      'largest request body accepted (env FLOWGATE_BODY_LIMIT; default 1048576)',
    )
    .option('--log-level <level>', 'trace, debug, info, warn, error (env LOG_LEVEL; default info)')
    .option(
      '--worker-groups <groups>',
      'worker groups served here besides default, comma-separated (env FLOWGATE_WORKER_GROUPS)',
    )
    .option(
      '--worker-concurrency <n>',
      'queued runs executed at once here (env FLOWGATE_WORKER_CONCURRENCY; default 8)',
    )
    .option('--no-queue-workers', 'run no queue workers in this process (use flowgate worker)')
    .option('--workers <n>', 'gateway processes sharing the port (node:cluster; default 1)')
    .addHelpText(
      'after',
      `
Environment:
  FLOWGATE_ADMIN_TOKEN       bearer token of the admin API (/admin/v1); without it the admin API is closed
  ENABLE_INSECURE_MAPPINGS   "1" lets flows map response headers and content type
  FLOWGATE_MAX_BODY_DEPTH    deepest JSON nesting accepted in bodies (64)
  FLOWGATE_REQUEST_TIMEOUT_MS, FLOWGATE_KEEP_ALIVE_TIMEOUT_MS, FLOWGATE_MAX_CONNECTIONS

Example:
  flowgate serve --project examples/demo --watch`,
    )
    .action(async (options: ServeOptions) => {
      const { serveCommand } = await import('./commands/serve.js')
      exitCode = await serveCommand(options, io)
    })

  program
    .command('worker')
    .description('Run workers for some worker groups on the same store as the gateway')
    .option('--groups <groups>', 'worker groups to serve, comma-separated', 'default')
    .option(
      '--data <dir>',
      'data directory of the store the gateway uses (env FLOWGATE_DATA; default ./.flowgate)',
    )
    .option(
      '--concurrency <n>',
      'queued runs executed at once (env FLOWGATE_WORKER_CONCURRENCY; default 8)',
    )
    .option('--log-level <level>', 'trace, debug, info, warn, error (env LOG_LEVEL; default info)')
    .addHelpText(
      'after',
      `
A worker leases queued runs of its groups, renews its leases while it runs them, and
announces itself every second. Killed, its runs are retried elsewhere after its lease
expires (FLOWGATE_LEASE_MS, 15000) up to FLOWGATE_MAX_ATTEMPTS (3). SIGTERM finishes
the running jobs first.

Example:
  flowgate worker --groups default,batch --data ./.flowgate`,
    )
    .action(async (options: WorkerOptions) => {
      const { workerCommand } = await import('./commands/worker.js')
      exitCode = await workerCommand(options, io)
    })

  program
    .command('validate')
    .description('Check a project (flowgate.yaml and flows/) and print every problem')
    .argument('<dir>', 'the project directory')
    .option('--json', 'print the diagnostics as JSON')
    .addHelpText('after', '\nExit code 0 when valid (warnings allowed), 1 when any error is found.')
    .action(async (dir: string, options: { json?: boolean }) => {
      const { validateCommand } = await import('./commands/validate.js')
      exitCode = await validateCommand(dir, options, io)
    })

  const keys = program.command('keys').description('Manage API keys')
  keys
    .command('create')
    .description('Create an API key: prints the key once and the sha256 to put in flowgate.yaml')
    .requiredOption('--user <name>', 'the user the key belongs to')
    .option('--name <name>', 'a name for the key (default: <user>-<hash prefix>)')
    .option('--json', 'print {key, sha256, name, user} as JSON')
    .action(async (options: { user: string; name?: string; json?: boolean }) => {
      const { createKeyCommand } = await import('./commands/keys.js')
      exitCode = createKeyCommand(options, io)
    })

  try {
    await program.parseAsync([...argv])
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here with exit code 0.
      return error.exitCode
    }
    io.err(`flowgate: ${(error as Error).message}\n`)
    return 1
  }
  return exitCode
}
