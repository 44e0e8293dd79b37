/** Loads the server configuration for a command, printing a configuration error plainly. */
import { ConfigError, loadConfig, type ConfigOverrides, type ServerConfig } from '../config.js'
import type { CliIO } from './io.js'

export function loadCliConfig(
  command: string,
  env: NodeJS.ProcessEnv,
  overrides: ConfigOverrides,
  io: CliIO,
): ServerConfig | undefined {
  try {
    return loadConfig(env, overrides)
  } catch (error) {
    if (error instanceof ConfigError) {
      io.err(`flowgate ${command}: ${error.message}\n`)
      return undefined
    }
    throw error
  }
}
