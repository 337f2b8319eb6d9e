/** Options every subcommand shares, and the config they load. */
import { loadConfig } from '../config/config-loader.js';
import type { Config } from '../config/config-schema.js';

export interface CommandOptions {
  readonly configFile: string | undefined;
  readonly demo: boolean;
}

/** The config of a command; only `serve` needs a secret of its own (it issues tokens to clients). */
export function commandConfig(options: CommandOptions, use: 'serve' | 'offline' = 'offline'): Config {
  return loadConfig({ file: options.configFile, demo: options.demo, offline: use === 'offline' });
}
