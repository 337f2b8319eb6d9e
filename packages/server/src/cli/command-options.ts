/** Options every subcommand shares, and the config they load. */
import { loadConfig } from '../config/config-loader.js';
import type { Config } from '../config/config-schema.js';

export interface CommandOptions {
  readonly configFile: string | undefined;
  readonly demo: boolean;
  /** `serve --port N`: wins over PORT and server.port. */
  readonly port?: string | undefined;
}

/** The config of a command; only `serve` needs a secret of its own (it issues tokens to clients). */
export function commandConfig(options: CommandOptions, use: 'serve' | 'offline' = 'offline'): Config {
  // The flag goes in as PORT so it is parsed and checked like the variable (a bad value is one
  // config problem, not a crash).
  const env = options.port === undefined ? process.env : { ...process.env, PORT: options.port };
  return loadConfig({ file: options.configFile, demo: options.demo, offline: use === 'offline', env });
}
