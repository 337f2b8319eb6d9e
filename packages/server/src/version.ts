/** The service's own version (contract: `pluginVersion` equals it) and the wire compatibility line. */
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

export const SERVICE_VERSION: string = pkg.version;
export const SCHEMA_VERSION = '1.0';
/** Moves only with a breaking change of the wire (contract §2). */
export const MINIMUM_CLIENT_VERSION = '0.1.0';
