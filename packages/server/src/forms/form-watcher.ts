/**
 * Reloads forms when their files change (config `forms.watch`), so an edit is live without a
 * restart. Edits come in bursts (editors write, rename, touch), hence the debounce; an invalid
 * edit is logged with the full report and the previous forms stay in service.
 */
import { watch, type FSWatcher } from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import type { FormRegistry } from './form-registry.js';
import { FormDefinitionError } from './definition-loader.js';

export interface FormWatcher {
  close(): void;
  /** Resolves after the reload a change triggered (tests wait on it). */
  settled(): Promise<void>;
}

export function watchForms(dir: string, registry: FormRegistry, log: FastifyBaseLogger, debounceMs = 150): FormWatcher {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  const reload = () => {
    running = running.then(async () => {
      try {
        await registry.reload();
        log.info({ forms: registry.list().map((f) => f.handle) }, 'forms reloaded');
      } catch (error) {
        if (error instanceof FormDefinitionError) log.warn({ problems: error.problems }, 'forms not reloaded: the new definitions are invalid');
        else log.error({ err: error }, 'forms not reloaded');
      }
    });
  };
  let watcher: FSWatcher | null = null;
  try {
    watcher = watch(dir, () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(reload, debounceMs);
    });
    watcher.on('error', (error) => log.warn({ err: error }, 'form watcher stopped'));
  } catch (error) {
    log.warn({ err: error }, 'cannot watch the forms directory; edits need a restart');
  }
  return {
    close() {
      if (timer) clearTimeout(timer);
      watcher?.close();
    },
    async settled() {
      while (timer) await new Promise((r) => setTimeout(r, debounceMs));
      await running;
    },
  };
}
