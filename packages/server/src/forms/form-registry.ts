/**
 * The set of live forms. Loaded from `forms.dir` at boot (an invalid definition stops the boot with
 * the full report); `reload()` swaps in a new set atomically, and keeps the old one when the new
 * files are invalid, so a typo in production never takes forms offline.
 */
import type { Kysely } from 'kysely';
import type { Form } from '@svc/core';
import type { Database } from '../storage/database-schema.js';
import { FormDefinitionError, loadFormDefinitions } from './definition-loader.js';
import { buildForm, definitionFieldKeys, definitionVersion } from './form-builder.js';
import { syncFormIdentity } from './form-identity-repository.js';

export interface FormRegistry {
  get(handle: string): Form | undefined;
  list(): readonly Form[];
  /** Re-read the directory; throws FormDefinitionError (and keeps the current forms) when invalid. */
  reload(): Promise<void>;
  /** Called after every reload that changed a form. */
  onChange(listener: () => void): void;
}

export interface FormRegistryOptions {
  readonly db: Kysely<Database>;
  readonly dir: string;
  readonly now?: () => Date;
}

export async function createFormRegistry(options: FormRegistryOptions): Promise<FormRegistry> {
  let forms = new Map<string, Form>();
  let ordered: readonly Form[] = [];
  const listeners: (() => void)[] = [];
  const now = options.now ?? (() => new Date());

  async function reload(): Promise<void> {
    const { definitions, problems } = await loadFormDefinitions(options.dir);
    if (problems.length > 0) throw new FormDefinitionError(problems);
    const next = new Map<string, Form>();
    const stamp = now().toISOString();
    for (const { definition } of definitions) {
      const version = definitionVersion(definition);
      const previous = forms.get(definition.handle);
      if (previous && previous.version === version) {
        next.set(definition.handle, previous);
        continue;
      }
      const identity = await syncFormIdentity(
        options.db,
        { handle: definition.handle, uid: definition.uid, version, fieldKeys: definitionFieldKeys(definition) },
        stamp,
      );
      next.set(definition.handle, buildForm(definition, identity, version));
    }
    const changed = next.size !== forms.size || [...next].some(([handle, form]) => forms.get(handle) !== form);
    forms = next;
    ordered = [...next.values()].sort((a, b) => a.id - b.id);
    if (changed) for (const listener of listeners) listener();
  }

  await reload();
  return {
    get: (handle) => forms.get(handle),
    list: () => ordered,
    reload,
    onChange: (listener) => {
      listeners.push(listener);
    },
  };
}
