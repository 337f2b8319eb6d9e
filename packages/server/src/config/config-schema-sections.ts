/**
 * The sections of the configuration schema that belong to one feature room each (profiles' auth
 * and links, the admin API and console, metrics, classic rendering, payments, captchas, files), kept apart so the
 * schema file stays a readable list. config-schema.ts puts them in the one tree ajv validates.
 */
import { Type, type TUnsafe } from '@sinclair/typebox';

/** A string enum that ajv reports as one clear `must be equal to one of the allowed values`. */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: { default?: T[number]; description?: string } = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** Issuers whose bearer JWTs `requiresAuth` profiles accept (issue #13). */
export const AuthSection = Type.Object(
  {
    issuers: Type.Array(
      Type.Object(
        {
          issuer: Type.String({ minLength: 1, description: 'The `iss` a token must carry.' }),
          audience: Type.String({ minLength: 1, description: 'The `aud` a token must carry.' }),
          jwksUrl: Type.Union([Type.String({ format: 'uri' }), Type.String({ pattern: '^/(?!/)\\S*$' }), Type.Null()], {
            default: null,
            description: 'JWKS of the issuer (cached; refreshed on an unknown kid); a path such as /demo/jwks.json is on svc itself (server.publicUrl, else the port it listens on).',
          }),
          publicKey: Type.Union([Type.String({ minLength: 1 }), Type.Null()], { default: null, description: 'A PEM public key (SPKI), instead of a JWKS.' }),
          algorithms: Type.Array(StringEnum(['RS256', 'RS384', 'RS512', 'PS256', 'ES256', 'ES384', 'EdDSA']), {
            minItems: 1,
            default: ['RS256', 'ES256'],
            description: 'Algorithms accepted (never `none`, never an HMAC with a public key).',
          }),
        },
        { additionalProperties: false },
      ),
      { default: [], description: 'Issuers of the bearer tokens `requiresAuth` profiles accept.' },
    ),
    clockToleranceSeconds: Type.Integer({ minimum: 0, maximum: 300, default: 30, description: 'Leeway for exp and nbf.' }),
    jwksCooldownSeconds: Type.Integer({ minimum: 0, maximum: 3600, default: 30, description: 'Least time between two fetches of a JWKS for unknown kids.' }),
  },
  { additionalProperties: false, default: {} },
);
/** Keys of the links svc signs for `requiresSignedToken` profiles (issue #13). */
export const ProfileLinksSection = Type.Object(
  {
    kid: Type.String({ pattern: '^[A-Za-z0-9_-]{1,32}$', default: 'k1', description: 'Key id new link tokens are signed with (a key derived from `secret`).' }),
    acceptedKids: Type.Array(Type.String({ pattern: '^[A-Za-z0-9_-]{1,32}$' }), { default: [], description: 'Older key ids still accepted while their links live (rotation).' }),
    defaultTtlHours: Type.Integer({ minimum: 1, maximum: 8760, default: 168, description: 'Lifetime of a link when `--ttl` is not given.' }),
  },
  { additionalProperties: false, default: {} },
);
/** Admin API keys and console users (issues #5, #15). */
export const AdminSection = Type.Object(
  {
    keys: Type.Array(
      Type.Object(
        {
          name: Type.String({ minLength: 1, description: 'Who holds the key; shown in logs, never the key itself.' }),
          sha256: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256 (hex) of the API key; the key itself is never stored.' }),
          // `write` without `read` would be a key that can delete what it cannot see.
          scopes: Type.Array(StringEnum(['read', 'write', 'privacy']), { minItems: 1, uniqueItems: true, contains: Type.Literal('read') }),
          forms: Type.Array(Type.String({ pattern: '^(\\*|[a-z][a-z0-9-]*)$' }), { minItems: 1, description: 'Form handles, or `*` for every form.' }),
        },
        { additionalProperties: false },
      ),
      {
        default: [],
        description:
          'Admin API keys {name, sha256, scopes: [read] or [read, write], plus `privacy` to find, export and erase a person\'s data (issue #37), forms: [handles] or [*]}, sent as `Authorization: Bearer <key>`.',
      },
    ),
    users: Type.Array(
      Type.Object(
        {
          username: Type.String({ pattern: '^[A-Za-z0-9._@-]{1,64}$', description: 'Sign-in name for the console.' }),
          passwordHash: Type.String({ pattern: '^scrypt\\$', description: 'Made by `svc admin hash-password`; the password itself is never stored.' }),
          scopes: Type.Array(StringEnum(['read', 'write', 'privacy']), { minItems: 1, uniqueItems: true, contains: Type.Literal('read') }),
          forms: Type.Array(Type.String({ pattern: '^(\\*|[a-z][a-z0-9-]*)$' }), { minItems: 1, description: 'Form handles, or `*` for every form.' }),
        },
        { additionalProperties: false },
      ),
      { default: [], description: 'Console users {username, passwordHash, scopes, forms}; the same scopes as API keys.' },
    ),
    downloadUrlMinutes: Type.Integer({
      minimum: 1,
      maximum: 1440,
      default: 5,
      description: 'Lifetime of the signed file download URLs the admin API hands out.',
    }),
  },
  { additionalProperties: false, default: {} },
);
/** The site owners' console (issue #15). */
export const ConsoleSection = Type.Object(
  {
    enabled: Type.Boolean({ default: true, description: 'Serve the site owners\' console at /svc/console/.' }),
    sessionIdleMinutes: Type.Integer({ minimum: 1, maximum: 1440, default: 30, description: 'A console session ends after this long without a request.' }),
    sessionMaxHours: Type.Integer({ minimum: 1, maximum: 720, default: 12, description: 'A console session ends this long after sign-in, however active.' }),
  },
  { additionalProperties: false, default: {} },
);
/** Prometheus metrics (issue #16). */
export const MetricsSection = Type.Object(
  {
    enabled: Type.Boolean({ default: false, description: 'Serve Prometheus metrics at /metrics (needs tokenSha256 or port).' }),
    tokenSha256: Type.Union([Type.String({ pattern: '^[0-9a-f]{64}$' }), Type.Null()], {
      default: null,
      description: 'SHA-256 (hex) of the bearer token a scraper sends to /metrics on the main port.',
    }),
    port: Type.Union([Type.Integer({ minimum: 1, maximum: 65535 }), Type.Null()], {
      default: null,
      description: 'Serve /metrics on this port instead (on server.host, no token): keep it off the public network.',
    }),
  },
  { additionalProperties: false, default: {} },
);
/** Insights: drop-off and field friction from aggregates only (issue #38, docs/insights.md). */
export const InsightsSection = Type.Object(
  {
    enabled: Type.Boolean({ default: true, description: 'Count views, steps, starts, completions and field errors per form and hour (no values, no addresses, no identifiers).' }),
    retentionDays: Type.Integer({ minimum: 1, maximum: 3650, default: 395, description: 'Days the hourly insights counts are kept; the hourly purge deletes older ones.' }),
  },
  { additionalProperties: false, default: {} },
);
/** Classic rendering: the properties JSON and form posts (issue #14). */
export const ClassicSection = Type.Object(
  {
    enabled: Type.Boolean({ default: true, description: 'Serve the form-properties JSON and take classic form posts at /svc/submit (contract §10).' }),
    propertiesPath: Type.String({
      pattern: '^/[A-Za-z0-9/_.-]*\\{handle\\}[A-Za-z0-9/_.-]*$',
      default: '/svc/api/forms/{handle}/properties',
      description: 'Where the form-properties JSON is served; must contain {handle}.',
    }),
    sessionStorage: Type.Union([Type.Literal('payload'), Type.Literal('database')], {
      default: 'payload',
      description: "Where a rendered form's state lives between posts: `payload` (sealed into svc_payload) or `database` (stored, named by the formHash).",
    }),
    payloadTtlHours: Type.Integer({ minimum: 1, maximum: 720, default: 24, description: 'How long a rendered form may wait before its svc_payload (or stored session) expires.' }),
    kid: Type.String({ pattern: '^[A-Za-z0-9_-]{1,32}$', default: 'k1', description: 'Key id new svc_payload values are sealed with (a key derived from `secret`).' }),
    acceptedKids: Type.Array(Type.String({ pattern: '^[A-Za-z0-9_-]{1,32}$' }), { default: [], description: 'Older key ids still opened while their payloads live (rotation).' }),
    flashTtlMinutes: Type.Integer({ minimum: 1, maximum: 1440, default: 10, description: 'How long the values and errors of a refused post wait to be shown once after its redirect.' }),
  },
  { additionalProperties: false, default: {} },
);
/** Card payments (issue #12). */
export const PaymentsSection = Type.Object(
  {
    checkpointTtlHours: Type.Integer({
      minimum: 1,
      maximum: 720,
      default: 24,
      description: 'Hours a payment checkpoint waits for its payment; then it is purged and its files released.',
    }),
    cancelUnpaidAfterHours: Type.Integer({
      minimum: 1,
      maximum: 720,
      default: 24,
      description: 'Hours after which intents that were never paid are cancelled at the gateway.',
    }),
    reconcileIntervalMinutes: Type.Integer({
      minimum: 0,
      maximum: 1440,
      default: 60,
      description: 'How often the reconcile job finishes paid intents whose webhook and callback were lost; 0 turns the job off.',
    }),
    stripe: Type.Object(
      {
        publishableKey: Type.Union([Type.String({ pattern: '^pk_' }), Type.Null()], { default: null, description: 'Publishable key (sent in the manifest).' }),
        secretKey: Type.Union([Type.String({ pattern: '^(sk|rk)_' }), Type.Null()], { default: null, description: 'Secret key; use SVC_PAYMENTS__STRIPE__SECRET_KEY_FILE.' }),
        webhookSecret: Type.Union([Type.String({ pattern: '^whsec_' }), Type.Null()], {
          default: null,
          description: 'Signing secret of the webhook endpoint /svc/payments/stripe/webhook; use SVC_PAYMENTS__STRIPE__WEBHOOK_SECRET_FILE.',
        }),
        apiUrl: Type.String({ format: 'uri', default: 'https://api.stripe.com', description: 'Stripe API base URL (point tests at a local double).' }),
        jsUrl: Type.String({ minLength: 1, default: 'https://js.stripe.com/v3/', description: 'Stripe.js URL the element loads (point tests at a local fake).' }),
        timeoutMs: Type.Integer({ minimum: 100, maximum: 60_000, default: 10_000, description: 'Timeout of one Stripe API call; a timeout answers 502 PAYMENT_GATEWAY_UNAVAILABLE.' }),
      },
      { additionalProperties: false, default: {} },
    ),
  },
  { additionalProperties: false, default: {} },
);
/** Captcha providers and their keys. */
export const CaptchaSection = Type.Object(
  {
    provider: Type.Union(
      [Type.Literal('recaptchaV2'), Type.Literal('recaptchaV3'), Type.Literal('hcaptcha'), Type.Literal('turnstile'), Type.Null()],
      { default: null, description: 'Site-wide default provider for forms with captcha enabled and no provider of their own.' },
    ),
    timeoutMs: Type.Integer({ minimum: 100, maximum: 30_000, default: 3000, description: 'Verification timeout; a timeout fails closed.' }),
    recaptchaV2: Type.Object(
      {
        siteKey: Type.Union([Type.String({ minLength: 1 }), Type.Null()], { default: null, description: 'Public site key (sent in the manifest).' }),
        secretKey: Type.Union([Type.String({ minLength: 1 }), Type.Null()], { default: null, description: 'Secret key; use SVC_CAPTCHA__RECAPTCHAV2__SECRET_KEY_FILE.' }),
        verifyUrl: Type.String({ format: 'uri', default: 'https://www.google.com/recaptcha/api/siteverify', description: 'Verification endpoint (point tests at a local server).' }),
        scriptUrl: Type.String({ minLength: 1, default: 'https://www.google.com/recaptcha/api.js?render=explicit', description: 'The provider\'s script the element loads (point tests at a local one).' }),
      },
      { additionalProperties: false, default: {} },
    ),
    recaptchaV3: Type.Object(
      {
        siteKey: Type.Union([Type.String({ minLength: 1 }), Type.Null()], { default: null, description: 'Public site key (sent in the manifest).' }),
        secretKey: Type.Union([Type.String({ minLength: 1 }), Type.Null()], { default: null, description: 'Secret key; use SVC_CAPTCHA__RECAPTCHAV3__SECRET_KEY_FILE.' }),
        verifyUrl: Type.String({ format: 'uri', default: 'https://www.google.com/recaptcha/api/siteverify', description: 'Verification endpoint (point tests at a local server).' }),
        scriptUrl: Type.String({
          minLength: 1,
          default: 'https://www.google.com/recaptcha/api.js?render={siteKey}',
          description: 'The provider\'s script the element loads; {siteKey} is replaced by the site key (point tests at a local one).',
        }),
        scoreThreshold: Type.Number({ minimum: 0, maximum: 1, default: 0.5, description: 'Lowest score accepted.' }),
        action: Type.Union([Type.String({ minLength: 1 }), Type.Null()], { default: 'submit', description: 'Action the token must carry; null accepts any.' }),
      },
      { additionalProperties: false, default: {} },
    ),
    hcaptcha: Type.Object(
      {
        siteKey: Type.Union([Type.String({ minLength: 1 }), Type.Null()], { default: null, description: 'Public site key (sent in the manifest).' }),
        secretKey: Type.Union([Type.String({ minLength: 1 }), Type.Null()], { default: null, description: 'Secret key; use SVC_CAPTCHA__HCAPTCHA__SECRET_KEY_FILE.' }),
        verifyUrl: Type.String({ format: 'uri', default: 'https://api.hcaptcha.com/siteverify', description: 'Verification endpoint (point tests at a local server).' }),
        scriptUrl: Type.String({ minLength: 1, default: 'https://js.hcaptcha.com/1/api.js?render=explicit', description: 'The provider\'s script the element loads (point tests at a local one).' }),
      },
      { additionalProperties: false, default: {} },
    ),
    turnstile: Type.Object(
      {
        siteKey: Type.Union([Type.String({ minLength: 1 }), Type.Null()], { default: null, description: 'Public site key (sent in the manifest).' }),
        secretKey: Type.Union([Type.String({ minLength: 1 }), Type.Null()], { default: null, description: 'Secret key; use SVC_CAPTCHA__TURNSTILE__SECRET_KEY_FILE.' }),
        verifyUrl: Type.String({ format: 'uri', default: 'https://challenges.cloudflare.com/turnstile/v0/siteverify', description: 'Verification endpoint (point tests at a local server).' }),
        scriptUrl: Type.String({ minLength: 1, default: 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit', description: 'The provider\'s script the element loads (point tests at a local one).' }),
      },
      { additionalProperties: false, default: {} },
    ),
  },
  { additionalProperties: false, default: {} },
);
/** Where uploads live, and their limits. */
export const FilesSection = Type.Object(
  {
    store: StringEnum(['disk', 's3'], { default: 'disk', description: 'Where uploads are kept: the local disk or an S3-compatible bucket.' }),
    dir: Type.Union([Type.String({ minLength: 1 }), Type.Null()], {
      default: null,
      description: 'Directory of the disk store; null means `<dataDir>/files`.',
    }),
    maxFileSizeKB: Type.Integer({
      minimum: 1,
      maximum: 4_194_304,
      default: 20_480,
      description: "Ceiling for any one file, whatever a field's maxFileSizeKB says.",
    }),
    maxFilesPerRequest: Type.Integer({ minimum: 1, maximum: 1000, default: 20, description: 'File parts accepted in one multipart submit.' }),
    unattachedHours: Type.Integer({
      minimum: 1,
      maximum: 8760,
      default: 24,
      description: 'Hours an upload no submission claimed is kept before the purge deletes it.',
    }),
    s3: Type.Object(
      {
        bucket: Type.Union([Type.String({ minLength: 1 }), Type.Null()], { default: null, description: 'Bucket name (required when files.store is s3).' }),
        region: Type.String({ minLength: 1, default: 'us-east-1', description: 'Bucket region.' }),
        endpoint: Type.Union([Type.String({ format: 'uri' }), Type.Null()], {
          default: null,
          description: 'Endpoint of an S3-compatible service (MinIO, R2, …); null for AWS.',
        }),
        forcePathStyle: Type.Boolean({ default: false, description: 'Path-style URLs, which most S3-compatible services need.' }),
        accessKeyId: Type.Union([Type.String({ minLength: 1 }), Type.Null()], {
          default: null,
          description: "Access key; null uses the AWS SDK's own chain (env, profile, role).",
        }),
        secretAccessKey: Type.Union([Type.String({ minLength: 1 }), Type.Null()], {
          default: null,
          description: 'Secret key; use SVC_FILES__S3__SECRET_ACCESS_KEY_FILE.',
        }),
        prefix: Type.String({ default: '', pattern: '^(?:[A-Za-z0-9_-]+/)*$', description: 'Key prefix inside the bucket, ending in `/`.' }),
      },
      { additionalProperties: false, default: {} },
    ),
  },
  { additionalProperties: false, default: {} },
);

/**
 * Sites (issue #34): each serves every form in one language, as the interface's own sites do. An
 * empty list is one site, `default`, in en-US at server.publicUrl: what svc served before sites.
 */
export const SitesSection = Type.Array(
  Type.Object(
    {
      handle: Type.String({ pattern: '^[a-z][a-z0-9-]*$', maxLength: 64, description: 'Names the site in `?site=<handle>` and `context.site`.' }),
      language: Type.String({ minLength: 2, maxLength: 35, description: 'BCP 47 language tag (de-DE, ar, fr-CA): picks the form translations and the built-in messages.' }),
      baseUrl: Type.Union([Type.String({ format: 'uri' }), Type.Null()], { default: null, description: "The site's own URL, served as the manifest's `site.baseUrl` (default server.publicUrl)." }),
      timezone: Type.Union([Type.String({ minLength: 1 }), Type.Null()], { default: null, description: 'IANA time zone of the site (Europe/Berlin); null is UTC.' }),
      default: Type.Boolean({ default: false, description: 'The site of requests that name none; exactly one site is the default.' }),
    },
    { additionalProperties: false },
  ),
  {
    default: [],
    description: 'Sites, each with its language (`?site=de` on a manifest, `context.site` on a submit). Empty: one site `default` in en-US.',
  },
);
