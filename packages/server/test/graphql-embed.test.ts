/** A host schema embeds svc: a host `Entry.contactForm` resolves to SvcFormInterface (interface.md §4.8). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql, GraphQLInterfaceType, GraphQLList, GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import { createSvcEmbedding, type SvcEmbedding } from '../src/index.js';
import { createTestApp, type TestApp } from './support/test-app.js';

interface HostEntry {
  readonly title: string;
  readonly formHandle: string | null;
}

const ENTRIES: readonly HostEntry[] = [
  { title: 'Contact us', formHandle: 'contact' },
  { title: 'About', formHandle: null },
  { title: 'Gone', formHandle: 'deleted-form' },
];

describe('embedding svc in a host schema', () => {
  let svc: TestApp;
  let embedding: SvcEmbedding;
  let schema: GraphQLSchema;

  beforeAll(async () => {
    svc = await createTestApp({ config: { forms: { watch: false } } });
    embedding = createSvcEmbedding(svc.context);
    const EntryInterface = new GraphQLInterfaceType({
      name: 'EntryInterface',
      fields: { title: { type: GraphQLString } },
      resolveType: () => 'Entry',
    });
    const Entry = new GraphQLObjectType<HostEntry>({
      name: 'Entry',
      interfaces: [EntryInterface],
      fields: {
        title: { type: GraphQLString },
        contactForm: embedding.formField((entry: HostEntry) => entry.formHandle),
      },
    });
    const host = new GraphQLSchema({
      query: new GraphQLObjectType({
        name: 'Query',
        fields: { entries: { type: new GraphQLList(EntryInterface), resolve: () => ENTRIES }, hello: { type: GraphQLString, resolve: () => 'host' } },
      }),
      types: [Entry],
    });
    schema = embedding.extend(host);
  });
  afterAll(async () => {
    await svc?.close();
  });

  const run = (source: string, authorization?: string) =>
    graphql({ schema, source, contextValue: { host: true, svc: embedding.context({ authorization }) } });

  it('resolves a host field to SvcFormInterface, queried through an inline fragment on the entry type', async () => {
    const result = await run(`{
      entries {
        title
        ... on Entry {
          contactForm {
            handle
            name
            ... on SvcForm { submissionMutationName }
            fields(handle: ["email", "message"]) { handle ... on SvcField_Textarea { maxLength } }
          }
        }
      }
    }`);
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({
      entries: [
        {
          title: 'Contact us',
          contactForm: {
            handle: 'contact',
            name: 'Contact',
            submissionMutationName: 'save_contact_Submission',
            fields: [{ handle: 'email' }, { handle: 'message', maxLength: 500 }],
          },
        },
        { title: 'About', contactForm: null },
        { title: 'Gone', contactForm: null },
      ],
    });
  });

  it("keeps the host's own fields and adds svc's root query and mutations", async () => {
    const result = await run('{ hello svc { forms { handle } } }');
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({ hello: 'host', svc: { forms: [{ handle: 'application' }, { handle: 'contact' }, { handle: 'kitchen-sink' }] } });
    expect(Object.keys(schema.getMutationType()?.getFields() ?? {})).toEqual(
      expect.arrayContaining(['save_contact_Submission', 'save_application_Submission', 'save_kitchen_sink_Submission', 'svcHeadlessSubmit']),
    );
  });

  it('applies svc access control inside the host schema: a form the caller may not read resolves to null', async () => {
    const restricted = await createTestApp({ config: { forms: { watch: false }, graphql: { public: { read: ['application'], submit: [] } } } });
    try {
      const restrictedEmbedding = createSvcEmbedding(restricted.context);
      const Entry = new GraphQLObjectType<HostEntry>({
        name: 'Entry',
        fields: { contactForm: restrictedEmbedding.formField((entry: HostEntry) => entry.formHandle) },
      });
      const restrictedSchema = restrictedEmbedding.extend(
        new GraphQLSchema({ query: new GraphQLObjectType({ name: 'Query', fields: { entry: { type: Entry, resolve: () => ENTRIES[0] } } }) }),
      );
      const result = await graphql({
        schema: restrictedSchema,
        source: '{ entry { contactForm { handle } } }',
        contextValue: { svc: restrictedEmbedding.context() },
      });
      expect(result.errors).toBeUndefined();
      expect(result.data).toEqual({ entry: { contactForm: null } });
    } finally {
      await restricted.close();
    }
  });

  it('runs a submission mutation through the host schema with a bearer token standing in for CSRF', async () => {
    const token = 'host-integration-token-0123456789';
    const { createHash } = await import('node:crypto');
    const withToken = await createTestApp({
      config: {
        forms: { watch: false },
        graphql: { tokens: [{ name: 'host', sha256: createHash('sha256').update(token).digest('hex'), scopes: ['submissions:contact:create'] }] },
      },
    });
    try {
      const tokenEmbedding = createSvcEmbedding(withToken.context);
      const tokenSchema = tokenEmbedding.extend(new GraphQLSchema({ query: new GraphQLObjectType({ name: 'Query', fields: { ok: { type: GraphQLString } } }) }));
      const honeypot = (await withToken.manifest('contact')).security.honeypot?.name ?? '';
      const result = await graphql({
        schema: tokenSchema,
        source: `mutation { save_contact_Submission(firstName: "Host", email: "host@example.test", honeypot: {name: "${honeypot}", value: ""}) { success submissionId } }`,
        contextValue: { svc: tokenEmbedding.context({ authorization: `Bearer ${token}` }) },
      });
      expect(result.errors).toBeUndefined();
      expect(result.data).toEqual({ save_contact_Submission: { success: true, submissionId: expect.any(Number) } });
    } finally {
      await withToken.close();
    }
  });
});
