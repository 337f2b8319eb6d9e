/**
 * The set of live forms. Loaded from `forms.dir` at boot (an invalid definition stops the boot with
 * the full report); `reload()` swaps in a new set atomically, and keeps the old one when the new
 * files are invalid, so a typo in production never takes forms offline.
 */
import type { Kysely } from 'kysely';
import type { Form, FormDefinition } from '@svc/core';
import type { Database } from '../storage/database-schema.js';
import { FormDefinitionError, loadFormDefinitions } from './definition-loader.js';
import { buildForm, definitionFieldKeys, definitionVersion } from './form-builder.js';
import { syncFormIdentity } from './form-identity-repository.js';
import type { FormTranslations } from './form-translations.js';

export interface FormRegistry {
  get(handle: string): Form | undefined;
  list(): readonly Form[];
  /** The form file's translations (issue #34); undefined when it has none. */
  translationsOf(form: Form): FormTranslations | undefined;
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
  const translations = new WeakMap<Form, FormTranslations>();
  const now = options.now ?? (() => new Date());

  async function reload(): Promise<void> {
    const { definitions, problems } = await loadFormDefinitions(options.dir);
    if (problems.length > 0) throw new FormDefinitionError(problems);
    const next = new Map<string, Form>();
    const stamp = now().toISOString();
    for (const { definition, translations: strings } of definitions) {
      // A changed translation is a new version: the manifest's ETag and caches follow it.
      const hasTranslations = Object.keys(strings).length > 0;
      const version = hasTranslations ? definitionVersion({ ...definition, translations: strings } as FormDefinition) : definitionVersion(definition);
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
      const form = buildForm(definition, identity, version);
      if (hasTranslations) translations.set(form, strings);
      next.set(definition.handle, form);
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
    translationsOf: (form) => translations.get(form),
    reload,
    onChange: (listener) => {
      listeners.push(listener);
    },
  };
}
