/**
 * Saved filters (issue #35 item 7): a console user's named queries of a form's list, kept per
 * account (`user:<name>`, `key:<name>`) so nobody sees another's. Saving under a name the user
 * already has for the form replaces it.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../storage/database-schema.js';

export interface SavedFilter {
  readonly id: number;
  readonly name: string;
  /** The list page's query string, without the `?`. */
  readonly query: string;
}

/** The most filters one account keeps per form: a list of names, not a store. */
export const MAX_FILTERS_PER_FORM = 50;

export async function listSavedFilters(db: Kysely<Database>, owner: string, form: string): Promise<SavedFilter[]> {
  const rows = await db.selectFrom('svc_console_filters').select(['id', 'name', 'query']).where('owner', '=', owner).where('form_handle', '=', form).orderBy('name').execute();
  return rows.map((r) => ({ id: Number(r.id), name: r.name, query: r.query }));
}

/** Saves (or replaces) `name`; false when the account already has the most filters for the form. */
export async function saveFilter(db: Kysely<Database>, owner: string, form: string, name: string, query: string, at: Date): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom('svc_console_filters').select('id').where('owner', '=', owner).where('form_handle', '=', form).where('name', '=', name).executeTakeFirst();
    if (existing) {
      await trx.updateTable('svc_console_filters').set({ query, created_at: at.toISOString() }).where('id', '=', existing.id).execute();
      return true;
    }
    const count = await trx.selectFrom('svc_console_filters').select((eb) => eb.fn.countAll<string | number>().as('n')).where('owner', '=', owner).where('form_handle', '=', form).executeTakeFirstOrThrow();
    if (Number(count.n) >= MAX_FILTERS_PER_FORM) return false;
    // A save racing another under the same name meets the unique constraint: one of them wins.
    await trx.insertInto('svc_console_filters').values({ owner, form_handle: form, name, query, created_at: at.toISOString() }).onConflict((oc) => oc.columns(['owner', 'form_handle', 'name']).doUpdateSet({ query })).execute();
    return true;
  });
}

/** Deletes one of the owner's filters; the name it had, or null when the owner has no such filter. */
export async function deleteFilter(db: Kysely<Database>, owner: string, form: string, id: number): Promise<string | null> {
  const row = await db.selectFrom('svc_console_filters').select('name').where('id', '=', id).where('owner', '=', owner).where('form_handle', '=', form).executeTakeFirst();
  if (!row) return null;
  await db.deleteFrom('svc_console_filters').where('id', '=', id).where('owner', '=', owner).execute();
  return row.name;
}
