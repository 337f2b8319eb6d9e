/**
 * The manifest turned back into @svc/core's form model, so the client evaluates conditional rules
 * and validates with exactly the code the server runs (one engine, DESIGN.md principle 2).
 */
import { fieldTypeFromWire, type Field, type NormalisedRule, type Page, type RuleDefinition, type RuleLayout } from '@svc/core';
import type { Manifest, ManifestRule } from './manifest-types.js';

/**
 * @svc/core's view of a manifest: pages, fields and rules the core functions accept.
 *
 * @example
 * const { fields } = formFromManifest(manifest);
 */
export interface ClientForm {
  readonly pages: readonly Page[];
  readonly fields: readonly Field[];
  readonly byHandle: ReadonlyMap<string, Field>;
}

function ruleDefinition(rule: ManifestRule): RuleDefinition {
  return {
    show: rule.action === 'show',
    type: rule.logic,
    criteria: rule.conditions.map((c) => ({ tgt: c.field, o: c.operator, val: c.value })),
  };
}

/**
 * @example
 * import { computeVisibility } from '@svc/core';
 * const hidden = computeVisibility(formFromManifest(manifest), values).hiddenFields;
 */
export function formFromManifest(manifest: Manifest): ClientForm {
  const fieldRules = new Map(manifest.conditionals.fields.map((r) => [r.target, ruleDefinition(r)]));
  const pageRules = new Map(manifest.conditionals.pages.map((r) => [r.target, ruleDefinition(r)]));
  const fields: Field[] = [];
  const pages: Page[] = manifest.layout.pages.map((page) => ({
    index: page.index,
    uid: page.uid,
    label: page.label,
    rules: pageRules.get(String(page.index)) ?? null,
    rows: page.rows.map((row, rowIndex) => ({
      id: row.id,
      fields: row.fields.flatMap((handle) => {
        const m = manifest.fields[handle];
        if (!m) return [];
        // The wire speaks Freeform's type names (contract §2); the core speaks svc's.
        const type = fieldTypeFromWire(m.type) ?? m.type;
        // Scales and ratings are offered as options for other clients; the core reads `scales`/`maxValue`.
        const options =
          type === 'opinionScale' || type === 'rating'
            ? undefined
            : m.options?.map(({ value, label, checked }) => (type === 'dynamicRecipients' ? { value, label, checked, recipients: [] } : { value, label, checked }));
        // Unset interface properties arrive as null; the core reads absence, not null.
        const config = Object.fromEntries(Object.entries(m.config).filter(([, value]) => value !== null));
        const field = {
          ...config,
          ...m.validation,
          type,
          handle: m.handle,
          label: m.label,
          required: m.required,
          ...(options ? { options } : {}),
          ...(m.placeholder !== null ? { placeholder: m.placeholder } : {}),
          rules: fieldRules.get(handle) ?? null,
          id: m.id,
          uid: m.uid,
          hash: m.hash,
          pageIndex: m.pageIndex,
          rowIndex,
        } as unknown as Field;
        fields.push(field);
        return [field];
      }),
    })),
  }));
  return { pages, fields, byHandle: new Map(fields.map((f) => [f.handle as string, f])) };
}

/**
 * The manifest's conditionals laid over `form` (formFromManifest's) as @svc/core's visibilityOf
 * walks them. The server sends them normalised (contract §2), so they are used as they are rather
 * than turned back into definitions and parsed again; an operator this build lacks never matches.
 *
 * @example
 * const hidden = visibilityOf(ruleLayoutFromManifest(manifest, formFromManifest(manifest)), values).hiddenFields;
 */
export function ruleLayoutFromManifest(manifest: Manifest, form: ClientForm): RuleLayout {
  const byTarget = (rules: readonly ManifestRule[]) => new Map(rules.map((r) => [r.target, r as NormalisedRule]));
  const fieldRules = byTarget(manifest.conditionals.fields);
  const pageRules = byTarget(manifest.conditionals.pages);
  return {
    pages: form.pages.map((page) => ({
      index: page.index,
      rule: pageRules.get(String(page.index)) ?? null,
      fields: page.rows.flatMap((row) => row.fields.map((f) => ({ handle: f.handle as string, rule: fieldRules.get(f.handle as string) ?? null }))),
    })),
    fieldCount: form.fields.length,
    hasRules: fieldRules.size > 0 || pageRules.size > 0,
  };
}
