/**
 * What `svc init` writes (issue #33): a config with every key at its default, written from the
 * config schema itself so it cannot drift from what the loader accepts, a contact form, and a
 * .gitignore. The command (init-command.ts) only decides where and refuses to overwrite.
 */
import type { TSchema } from '@sinclair/typebox';
import { Document, isMap, isScalar, type Pair, type YAMLMap } from 'yaml';
import { ConfigSchema } from '../config/config-schema.js';

/** The file `svc init` keeps the secret in, beside the config that names it. */
export const SECRET_FILE = '.svc-secret';
/** The one form a new project starts with. */
export const STARTER_FORM = 'contact';

interface SchemaNode {
  readonly properties?: Record<string, SchemaNode>;
  readonly default?: unknown;
  readonly description?: string;
}

/**
 * A schema object with named keys is a section; anything else (records included) is one value. So
 * is an object of optional tokens that has a default of its own and none of theirs (hosted.theme:
 * `{}` means "the built-in look"; writing each token out would pin today's defaults in the file).
 */
const isSection = (schema: SchemaNode): schema is SchemaNode & { properties: Record<string, SchemaNode> } =>
  schema.properties !== undefined && !('default' in schema && Object.values(schema.properties).every((child) => !('default' in child)));

/** Every key of a section at its default; a key without a default is a schema mistake, said here. */
function defaultsOf(schema: SchemaNode, path: string): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(schema.properties ?? {}).map(([key, child]) => {
      if (isSection(child)) return [key, defaultsOf(child, `${path}${key}.`)];
      if (!('default' in child)) throw new Error(`config key ${path}${key} has no default`);
      return [key, structuredClone(child.default)];
    }),
  );
}

/** Descriptions as comment lines of at most `width` characters. */
function wrap(text: string, width = 96): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + word.length + 1 > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.map((l) => ` ${l}`).join('\n');
}

/** Puts each key's description above it, walking the YAML map beside the schema. */
function describe(map: YAMLMap, schema: SchemaNode, top: boolean): void {
  for (const [index, pair] of (map.items as Pair[]).entries()) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    const child = schema.properties?.[key];
    if (!child || !isScalar(pair.key)) continue;
    if (child.description) pair.key.commentBefore = wrap(child.description);
    // A blank line between top-level sections, so the file reads as a list of them.
    if (top && index > 0) pair.key.spaceBefore = true;
    if (isSection(child) && isMap(pair.value)) describe(pair.value, child, false);
  }
}

const HEADER = [
  ' svc configuration, written by `svc init`: every key at its default, so this file is also its',
  ' reference. Keys left at their default can be deleted. Any key can be set from the environment',
  ' instead: SVC_ + its path in SCREAMING_SNAKE with __ between levels (SVC_SERVER__PORT=8080), and',
  ' a _FILE suffix reads the value from a file (SVC_SECRET_FILE=/run/secrets/svc). Paths here are',
  ' relative to this file.',
].join('\n');

/**
 * The config `svc init` writes. Two keys differ from the defaults: the secret comes from the file
 * beside it, and the starter form's manifest and submit are switched on (both off by default, so
 * no form is public by accident).
 */
export function renderInitConfig(): string {
  const schema = ConfigSchema as unknown as SchemaNode;
  const values = defaultsOf(schema, '');
  values.secretFile = SECRET_FILE;
  const headless = values.headless as { forms: Record<string, unknown> };
  headless.forms = { [STARTER_FORM]: { exposeManifest: true, allowSubmit: true, allowedOrigins: [] } };
  const doc = new Document(values);
  doc.commentBefore = HEADER;
  if (isMap(doc.contents)) describe(doc.contents, schema, true);
  const starter = doc.getIn(['headless', 'forms'], true);
  if (isMap(starter)) {
    const [pair] = starter.items as Pair[];
    if (pair && isScalar(pair.key)) pair.key.commentBefore = ' Written by svc init: the starter form answers its manifest and takes submissions (both off by\n default, so no form is public by accident). Add allowedOrigins for a front end on another origin.';
  }
  return doc.toString({ lineWidth: 0 });
}

/** A starter contact form, after examples/forms/contact.yaml without its example-only templates. */
export const CONTACT_FORM = `# A one-page contact form. The handle is the file name: it is served at /svc/api/forms/contact/…
# Check every form with \`npx svc forms check\`; the server reloads them when they change.
name: Contact

settings:
  # Title of each stored submission; {{ handle }} inserts the value of that field.
  submissionTitleFormat: "{{ firstName }} {{ lastName }}"
  successMessage: Thanks, we got your message.
  spam:
    honeypot: true        # a hidden input only bots fill in
    javascriptTest: true  # a value only a script-running browser sets

# \`fields\` is the single-page shortcut: one page, one field per row.
fields:
  - type: text
    handle: firstName     # the key of the value in submissions
    label: First name
    required: true
  - type: text
    handle: lastName
    label: Last name
  - type: email
    handle: email
    label: Email
    required: true
  - type: textarea
    handle: message
    label: Message
    maxLength: 500
  - type: submit
    label: Send
`;

/** What stays out of version control: the database and uploads, and the secret. */
export const GITIGNORE = `# svc: the data directory (database, uploads, mail) and the server secret
/data/
/${SECRET_FILE}
node_modules/
`;
