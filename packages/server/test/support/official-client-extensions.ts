/**
 * The two parts of the official client that talk to svc outside the submit: the `file-dnd`
 * extension's upload and delete (extensions.md §2) and the React/Vue demos' GraphQL fetch adapter
 * (react-vue-demos.md §4), brand-swapped (contract §7, §11, §12). Written from the research
 * notes; no Freeform code.
 */
import { resolveUrl, type CsrfToken, type OfficialForm } from './official-client.js';
import type { OfficialField } from './official-client-state.js';

export interface DroppedFile {
  readonly id: string;
  readonly name: string;
  readonly extension: string;
  readonly size: unknown;
}

export interface FileDndOptions {
  /** false: a page without `crypto.randomUUID` (plain http), so the token is `ff-<ms>-<base36>`. */
  readonly secureContext?: boolean;
}

/** `supports()` of the file-dnd extension. */
export function supportsFileDnd(field: OfficialField): boolean {
  return field.type === 'file-dnd' || field.frontend?.extension === 'file-dnd' || field.frontend?.renderer === 'file-dnd';
}

/** One mounted drop zone: its upload token, its files, and the message it shows. */
export class FileDndWidget {
  readonly token: string;
  readonly files: DroppedFile[] = [];
  message: string | null = null;

  constructor(
    readonly form: OfficialForm,
    readonly field: OfficialField,
    private readonly config: { uploadUrl: string; deleteUrl: string; maxFiles: number; maxFileSizeBytes: number },
    options: FileDndOptions,
  ) {
    const secure = options.secureContext ?? true;
    this.token = secure ? crypto.randomUUID() : `ff-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  }

  private get baseUrl(): string {
    return this.form.client.options.baseUrl || (this.form.manifest.site?.baseUrl ?? '') || '';
  }

  /** Fresh before every upload and delete; any failure means "carry on without CSRF". */
  private async readCsrf(): Promise<CsrfToken | null> {
    const { manifest } = this.form;
    const endpoint = manifest.security.csrf?.tokenEndpoint ?? manifest.endpoints.csrf?.url;
    if (!endpoint) return null;
    try {
      const response = await this.form.client.recorder.fetch(resolveUrl(this.baseUrl, endpoint), { credentials: 'include', headers: { Accept: 'application/json' } });
      if (!response.ok) return null;
      const body = (await response.json()) as { csrf?: { name?: string; value?: string } };
      return body.csrf?.name && body.csrf.value ? { name: body.csrf.name, value: body.csrf.value } : null;
    } catch {
      return null;
    }
  }

  private headers(csrf: CsrfToken | null): Record<string, string> {
    const headers: Record<string, string> = { 'X-Svc-Upload-Token': this.token, Accept: 'application/json' };
    if (csrf) headers['X-CSRF-Token'] = csrf.value;
    return headers;
  }

  private syncValue(): void {
    this.form.state.setValue(this.field.handle, this.files.map((f) => f.id));
  }

  /** Drops one file: client-side limits, then the upload; true when it was accepted. */
  async upload(file: File): Promise<boolean> {
    if (this.files.length >= this.config.maxFiles) {
      this.message = `Maximum file upload limit of ${this.config.maxFiles} reached`;
      return false;
    }
    if (file.size > this.config.maxFileSizeBytes) {
      this.message = `Maximum file upload size is ${Math.round(this.config.maxFileSizeBytes / 1000)}KB`;
      return false;
    }
    const csrf = await this.readCsrf();
    const body = new FormData();
    body.append(this.field.handle, file);
    body.append('uploadToken', this.token);
    if (csrf) body.append(csrf.name, csrf.value);
    const response = await this.form.client.recorder.fetch(resolveUrl(this.baseUrl, this.config.uploadUrl), {
      method: 'POST',
      credentials: 'include',
      headers: this.headers(csrf),
      body,
    });
    let json: { success?: boolean; data?: Partial<DroppedFile> & { id?: string }; errors?: unknown[]; message?: string };
    try {
      json = (await response.json()) as typeof json;
    } catch {
      this.message = 'Upload failed.';
      return false;
    }
    if (!response.ok || !json.success || !json.data?.id) {
      this.message = String(json.errors?.[0] || json.message || 'Upload failed.');
      return false;
    }
    const dot = file.name.lastIndexOf('.');
    this.files.push({
      id: json.data.id,
      name: json.data.name ?? file.name,
      extension: json.data.extension ?? (dot >= 0 ? file.name.slice(dot + 1).toLowerCase() : ''),
      size: json.data.size,
    });
    this.message = 'Upload complete!';
    this.syncValue();
    return true;
  }

  /** Removes one file (after the confirm dialog); only `response.ok` is looked at. */
  async remove(id: string): Promise<boolean> {
    const csrf = await this.readCsrf();
    const body = new FormData();
    body.append('id', id);
    body.append('uploadToken', this.token);
    if (csrf) body.append(csrf.name, csrf.value);
    const response = await this.form.client.recorder.fetch(resolveUrl(this.baseUrl, this.config.deleteUrl), {
      method: 'POST',
      credentials: 'include',
      headers: this.headers(csrf),
      body,
    });
    if (!response.ok) {
      this.message = 'Could not remove file.';
      return false;
    }
    const at = this.files.findIndex((f) => f.id === id);
    if (at >= 0) this.files.splice(at, 1);
    this.syncValue();
    return true;
  }
}

/**
 * Mounts the file-dnd extension on a field as React does: the host renderer needs a truthy
 * `frontend.extension`, the extension needs `supports()` and both endpoints in `frontend.config`.
 */
export function mountFileDnd(form: OfficialForm, handle: string, options: FileDndOptions = {}): FileDndWidget {
  const field = form.manifest.fields[handle];
  if (!field || !field.frontend?.extension || !supportsFileDnd(field)) throw new Error(`file-dnd does not mount on "${handle}"`);
  const config = field.frontend.config ?? {};
  const { uploadUrl, deleteUrl } = config;
  if (typeof uploadUrl !== 'string' || !uploadUrl || typeof deleteUrl !== 'string' || !deleteUrl) {
    throw new Error('File DnD upload endpoints are missing from the manifest.');
  }
  const maxFiles = typeof config.maxFiles === 'number' ? config.maxFiles : 1;
  const maxFileSizeBytes = typeof config.maxFileSizeBytes === 'number' ? config.maxFileSizeBytes : 2048 * 1000;
  return new FileDndWidget(form, field, { uploadUrl, deleteUrl, maxFiles, maxFileSizeBytes }, options);
}

export const GRAPHQL_MANIFEST_QUERY = 'query SvcHeadlessManifest($handle: String!) { svcHeadlessManifest(handle: $handle) }';
/**
 * The demos' submit document. It declares no `$csrfToken`: the adapter still puts the token in
 * `variables.csrfToken`, which GraphQL leaves unread and svc reads from the request (contract §11).
 */
export const GRAPHQL_SUBMIT_MUTATION =
  'mutation SvcHeadlessSubmit($handle: String!, $intent: String, $values: SvcJson, $meta: SvcJson, $context: SvcJson) ' +
  '{ svcHeadlessSubmit(handle: $handle, intent: $intent, values: $values, meta: $meta, context: $context) }';

export interface GraphqlAdapterOptions {
  /** The page origin relative URLs resolve against (the demos: `window.location.origin`). */
  readonly baseUrl: string;
  /** The real fetch underneath (REST fall-through and the GraphQL POSTs). */
  readonly fetch: typeof fetch;
  /** `VITE_GRAPHQL_PATH`; the React demo's default is `/actions/graphql/api`. */
  readonly path?: string;
  readonly bearerToken?: string;
}

/** `craftGraphql`: POST `{query, variables}`; throws on HTTP failure, GraphQL `errors` or no `data`. */
export async function craftGraphql(options: GraphqlAdapterOptions, query: string, variables: Record<string, unknown>): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
  if (options.bearerToken) headers.Authorization = `Bearer ${options.bearerToken}`;
  const response = await options.fetch(resolveUrl(options.baseUrl, options.path ?? '/actions/graphql/api'), {
    method: 'POST',
    credentials: 'include',
    headers,
    body: JSON.stringify({ query, variables }),
  });
  const json = (await response.json()) as { data?: Record<string, unknown> | null; errors?: { message: string }[] };
  if (!response.ok) throw new Error(json.errors?.[0]?.message ?? `GraphQL HTTP ${response.status}: ${response.statusText}`);
  if (json.errors && json.errors.length > 0) throw new Error(json.errors.map((e) => e.message).join('; '));
  if (!json.data) throw new Error('GraphQL response missing data.');
  return json.data;
}

const jsonResponse = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

/**
 * The demos' `graphqlFetch`: a drop-in fetch that answers the manifest GET and JSON submit POST
 * through `svcHeadlessManifest` / `svcHeadlessSubmit` and passes everything else (CSRF, multipart
 * submits, uploads) to REST.
 */
export function createGraphqlFetch(options: GraphqlAdapterOptions): typeof fetch {
  return async (input, init) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url, options.baseUrl);
    const method = (init?.method ?? 'GET').toUpperCase();
    const manifest = /^\/svc\/api\/forms\/([^/]+)\/manifest\/?$/.exec(url.pathname);
    if (method === 'GET' && manifest) {
      const data = await craftGraphql(options, GRAPHQL_MANIFEST_QUERY, { handle: decodeURIComponent(manifest[1] ?? '') });
      return jsonResponse({ success: true, data: data.svcHeadlessManifest, meta: {} });
    }
    const submit = /^\/svc\/api\/forms\/([^/]+)\/submit\/?$/.exec(url.pathname);
    if (method === 'POST' && submit && !(init?.body instanceof FormData)) {
      const payload = JSON.parse(String(init?.body)) as { intent?: string; values?: unknown; meta?: unknown; context?: unknown };
      // The header the core client set becomes a variable; no CSRF header goes to GraphQL.
      const csrfToken = new Headers(init?.headers).get('X-CSRF-Token');
      const variables: Record<string, unknown> = {
        handle: decodeURIComponent(submit[1] ?? ''),
        intent: payload.intent ?? 'submit',
        values: payload.values ?? {},
        meta: payload.meta ?? {},
        context: payload.context ?? {},
      };
      if (csrfToken) variables.csrfToken = csrfToken;
      const data = await craftGraphql(options, GRAPHQL_SUBMIT_MUTATION, variables);
      return jsonResponse(data.svcHeadlessSubmit);
    }
    return options.fetch(input, init);
  };
}
