/** Options every subcommand shares, and the config they load. */
import { loadConfig } from '../config/config-loader.js';
import type { Config } from '../config/config-schema.js';

export interface CommandOptions {
  readonly configFile: string | undefined;
  readonly demo: boolean;
}

export function commandConfig(options: CommandOptions): Config {
  return loadConfig({ file: options.configFile, demo: options.demo });
}
