/** @svc/client: the official client of svc (interface.md §1). */
export { createClient, assertCompatible, type ClientOptions, type SvcClient } from './svc-client.js';
export type { CsrfToken, SessionClient, SiteOptions } from './client-types.js';
export { FormSession, type FieldErrors } from './form-session.js';
export { ProfileAccess, type ProfileOptions } from './profile-access.js';
export { SvcClientError } from './client-error.js';
export { CLIENT_VERSION, compareVersions } from './client-version.js';
export { formFromManifest, type ClientForm } from './manifest-model.js';
export type { GraphqlTransport, GraphqlSubmitBody } from './graphql-transport.js';
// Types only: the payment functions are in `@svc/client/payments`, so pages without payments do not load them.
export type { PaymentConfig, PaymentIntent } from './payment-requests.js';
export type {
  Manifest,
  ManifestField,
  ManifestOption,
  ManifestPage,
  ManifestRule,
  ManifestCondition,
  ManifestCaptcha,
  SubmitResponse,
  UploadedFile,
} from './manifest-types.js';
