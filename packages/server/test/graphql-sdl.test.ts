/**
 * The committed GraphQL schema (issue #16): `schema/svc.graphql` is what `svc graphql schema`
 * prints for the example forms, so clients generating types from it get what svc serves.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { graphqlSdl } from '../src/cli/graphql-schema-command.js';
import { EXAMPLE_FORMS_DIR } from './support/test-app.js';
import { REPO_ROOT } from './support/server-process.js';

describe('schema/svc.graphql', () => {
  it('is the SDL svc serves for the example forms (regenerate: npm run -s svc -- graphql schema --demo > schema/svc.graphql)', async () => {
    // A mailing-list argument is named by its field's hash, which each installation makes its own.
    const stable = (sdl: string) => sdl.replace(/mailingList_[A-Za-z0-9_-]+/g, 'mailingList_<hash>');
    const committed = stable(readFileSync(join(REPO_ROOT, 'schema/svc.graphql'), 'utf8'));
    const current = stable(await graphqlSdl(EXAMPLE_FORMS_DIR));
    expect(current.length).toBeGreaterThan(1000);
    expect(current).toContain('save_contact_Submission(');
    expect(committed === current, 'schema/svc.graphql is out of date: npm run -s svc -- graphql schema --demo > schema/svc.graphql').toBe(true);
  });
});
