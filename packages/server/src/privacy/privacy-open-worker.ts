/**
 * The thread an export's rows are opened on (privacy-open-pool.ts): it builds the same keyring
 * from the config section it is handed and answers each batch of sealed rows with their opened
 * title and values text, in order. Nothing else runs here.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { keyringFromConfig, type PrivacyKeysConfig } from './privacy-config.js';
import { createValueSealer } from './privacy-sealer.js';
import { openBatch, type OpenBatch } from './privacy-open-pool.js';

const { config, env } = workerData as { config: PrivacyKeysConfig; env: NodeJS.ProcessEnv };
const sealer = createValueSealer(keyringFromConfig(config, env));

parentPort?.on('message', (batch: OpenBatch) => {
  parentPort?.postMessage(openBatch(sealer, batch));
});
