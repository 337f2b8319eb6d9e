/**
 * Type tests of the public API of @svc/client (checked by `tsc` and vitest's expectTypeOf): what
 * an application written against the package may rely on.
 */
import { describe, expectTypeOf, it } from 'vitest';
import {
  assertCompatible,
  CLIENT_VERSION,
  compareVersions,
  createClient,
  formFromManifest,
  FormSession,
  SvcClientError,
  type ClientForm,
  type ClientOptions,
  type CsrfToken,
  type FieldErrors,
  type GraphqlSubmitBody,
  type GraphqlTransport,
  type Manifest,
  type ManifestField,
  type ProfileOptions,
  type SiteOptions,
  type SubmitResponse,
  type SvcClient,
  type UploadedFile,
} from '../src/index.js';

describe('createClient', () => {
  it('takes ClientOptions: baseUrl required, fetch/credentials/graphqlUrl/retries optional', () => {
    expectTypeOf(createClient).parameters.toEqualTypeOf<[ClientOptions]>();
    expectTypeOf(createClient).returns.toEqualTypeOf<SvcClient>();
    expectTypeOf<ClientOptions['baseUrl']>().toEqualTypeOf<string>();
    expectTypeOf<ClientOptions['fetch']>().toEqualTypeOf<typeof fetch | undefined>();
    expectTypeOf<ClientOptions['credentials']>().toEqualTypeOf<RequestCredentials | undefined>();
    expectTypeOf<ClientOptions['graphqlUrl']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ClientOptions['retries']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<ClientOptions['site']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<{ baseUrl: string }>().toExtend<ClientOptions>();
    expectTypeOf<{ fetch: typeof fetch }>().not.toExtend<ClientOptions>();
    // @ts-expect-error baseUrl is required
    const bad: ClientOptions = {};
    void bad;
  });
});

describe('SvcClient', () => {
  it('methods return the documented promises', () => {
    expectTypeOf<SvcClient['baseUrl']>().toEqualTypeOf<string>();
    expectTypeOf<SvcClient['getManifest']>().toEqualTypeOf<(handle: string, options?: SiteOptions) => Promise<Manifest>>();
    expectTypeOf<SiteOptions>().toEqualTypeOf<{ readonly site?: string }>();
    expectTypeOf<SvcClient['getProfileManifest']>().parameters.toEqualTypeOf<
      [profile: string, properties?: Readonly<Record<string, string | number | boolean>>, credentials?: Pick<ProfileOptions, 'token' | 'auth'>]
    >();
    expectTypeOf<SvcClient['profileSession']>().parameters.toEqualTypeOf<[profile: string, options?: ProfileOptions]>();
    expectTypeOf<SvcClient['profileSession']>().returns.resolves.toEqualTypeOf<FormSession>();
    expectTypeOf<SvcClient['getProfileManifest']>().returns.resolves.toEqualTypeOf<Manifest>();
    expectTypeOf<SvcClient['csrf']>().toEqualTypeOf<(refresh?: boolean) => Promise<CsrfToken | null>>();
    expectTypeOf<SvcClient['session']>().parameters.toEqualTypeOf<[handleOrManifest: string | Manifest, options?: SiteOptions]>();
    expectTypeOf<SvcClient['session']>().returns.resolves.toEqualTypeOf<FormSession>();
    expectTypeOf<SvcClient['graphql']>().toEqualTypeOf<GraphqlTransport>();
    expectTypeOf<CsrfToken>().toEqualTypeOf<{ readonly name: string; readonly value: string }>();
  });

  it('the GraphQL transport mirrors REST', () => {
    expectTypeOf<GraphqlTransport['getManifest']>().toEqualTypeOf<(handle: string, options?: SiteOptions) => Promise<Manifest>>();
    expectTypeOf<GraphqlTransport['submit']>().parameters.toEqualTypeOf<[handle: string, body: GraphqlSubmitBody, options?: SiteOptions]>();
    expectTypeOf<GraphqlTransport['submit']>().returns.resolves.toEqualTypeOf<SubmitResponse>();
    expectTypeOf<GraphqlSubmitBody['intent']>().toEqualTypeOf<string>();
    expectTypeOf<{ intent: 'submit' }>().toExtend<GraphqlSubmitBody>();
  });

  it('assertCompatible returns void; versions are strings', () => {
    expectTypeOf(assertCompatible).toEqualTypeOf<(manifest: Manifest) => void>();
    expectTypeOf(CLIENT_VERSION).toEqualTypeOf<string>();
    expectTypeOf(compareVersions).toEqualTypeOf<(a: string, b: string) => number>();
    expectTypeOf(formFromManifest).returns.toEqualTypeOf<ClientForm>();
  });
});

describe('FormSession', () => {
  it('holds state with these types', () => {
    expectTypeOf<FormSession['manifest']>().toEqualTypeOf<Manifest>();
    expectTypeOf<FormSession['values']>().toEqualTypeOf<Record<string, unknown>>();
    expectTypeOf<FormSession['pageIndex']>().toEqualTypeOf<number>();
    expectTypeOf<FormSession['totalPages']>().toEqualTypeOf<number>();
    expectTypeOf<FormSession['stateToken']>().toEqualTypeOf<string | null>();
    expectTypeOf<FormSession['uploadToken']>().toEqualTypeOf<string | null>();
    expectTypeOf<FormSession['site']>().toEqualTypeOf<string | null>();
    expectTypeOf<FormSession['draft']>().toEqualTypeOf<{ token: string; key: string; resumeUrl: string | null } | null>();
    expectTypeOf<FormSession['errors']>().toEqualTypeOf<{ fields: FieldErrors; form: readonly string[] }>();
    expectTypeOf<FormSession['files']>().toEqualTypeOf<Map<string, File[]>>();
    expectTypeOf<FieldErrors>().toEqualTypeOf<Readonly<Record<string, readonly string[]>>>();
  });

  it('members take and return these types', () => {
    expectTypeOf<FormSession['setValue']>().toEqualTypeOf<(handle: string, value: unknown) => void>();
    expectTypeOf<FormSession['setFiles']>().toEqualTypeOf<(handle: string, files: readonly File[]) => void>();
    expectTypeOf<FormSession['setCaptcha']>().toEqualTypeOf<(name: string, value: string) => void>();
    expectTypeOf<FormSession['visibleFields']>().toEqualTypeOf<(pageIndex?: number) => string[]>();
    expectTypeOf<FormSession['validate']>().toEqualTypeOf<(scope?: 'page' | 'form') => FieldErrors>();
    for (const step of ['next', 'back', 'submit', 'saveDraft'] as const) {
      expectTypeOf<FormSession[typeof step]>().toEqualTypeOf<() => Promise<SubmitResponse>>();
      void step;
    }
    expectTypeOf<FormSession['resume']>().toEqualTypeOf<(token: string, key: string) => Promise<SubmitResponse>>();
    expectTypeOf<FormSession['upload']>().toEqualTypeOf<(handle: string, file: File) => Promise<UploadedFile>>();
    expectTypeOf<FormSession['removeUpload']>().toEqualTypeOf<(handle: string, id: string) => Promise<void>>();
    expectTypeOf<FormSession['meta']>().toEqualTypeOf<() => Record<string, unknown>>();
    expectTypeOf<UploadedFile>().toEqualTypeOf<{ readonly id: string; readonly name: string; readonly extension: string; readonly size: number }>();
  });
});

describe('SvcClientError', () => {
  it('is an Error with code, status and details', () => {
    expectTypeOf<SvcClientError>().toExtend<Error>();
    expectTypeOf<SvcClientError['code']>().toEqualTypeOf<string>();
    expectTypeOf<SvcClientError['status']>().toEqualTypeOf<number>();
    expectTypeOf<SvcClientError['details']>().toEqualTypeOf<unknown>();
    expectTypeOf(SvcClientError).constructorParameters.toEqualTypeOf<[code: string, message: string, status?: number, details?: unknown]>();
    const error = new SvcClientError('FORM_NOT_FOUND', 'x', 404);
    // @ts-expect-error code is readonly
    error.code = 'OTHER';
  });
});

describe('SubmitResponse', () => {
  it('status is the union of contract §4', () => {
    expectTypeOf<SubmitResponse['status']>().toEqualTypeOf<
      | 'submitted'
      | 'page_valid'
      | 'validated'
      | 'validation_failed'
      | 'draft_saved'
      | 'context_invalid'
      | 'context_required'
      | 'spam_rejected'
      | 'captcha_failed'
      | 'limit_reached'
    >();
    expectTypeOf<'not_a_status'>().not.toExtend<SubmitResponse['status']>();
    expectTypeOf<SubmitResponse['success']>().toEqualTypeOf<boolean>();
    expectTypeOf<SubmitResponse['submission']>().toEqualTypeOf<{ readonly id: number; readonly uid: string; readonly token: string } | null>();
    expectTypeOf<SubmitResponse['draft']>().toEqualTypeOf<{ readonly token: string; readonly key: string; readonly resumeUrl: string | null } | null>();
    expectTypeOf<SubmitResponse['errors']['fields']>().toEqualTypeOf<Readonly<Record<string, readonly string[]>>>();
    expectTypeOf<SubmitResponse['page']>().toEqualTypeOf<{ readonly currentIndex: number; readonly total: number }>();
    expectTypeOf<SubmitResponse['state']['token']>().toEqualTypeOf<string | null>();
  });

  it('manifest fields are keyed by handle', () => {
    expectTypeOf<Manifest['fields']>().toEqualTypeOf<Readonly<Record<string, ManifestField>>>();
    expectTypeOf<ManifestField['required']>().toEqualTypeOf<boolean>();
    expectTypeOf<Manifest['form']['handle']>().toEqualTypeOf<string>();
  });
});
