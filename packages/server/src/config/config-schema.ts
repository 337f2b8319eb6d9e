/**
 * The configuration schema: one TypeBox tree that is both the JSON Schema ajv validates at boot
 * and the static `Config` type the rest of the server reads (DESIGN.md principle 5). Every key has
 * a description; docs/configuration.md's reference is generated from these (`npm run docs:config`).
 */
import { Type, type Static } from '@sinclair/typebox';
import {
  AdminSection, AuthSection, CaptchaSection, ClassicSection, FilesSection, ConsoleSection, MetricsSection, InsightsSection, PaymentsSection, ProfileLinksSection, SitesSection, StringEnum,
} from './config-schema-sections.js';
import { HostedSection } from '../hosted/hosted-config.js';
import { PrivacySection } from '../privacy/privacy-config.js';

const OriginList = Type.Array(Type.String({ minLength: 1 }), {
  default: [],
  description: 'Origins such as https://app.example.com; `*` inside the host stands for DNS labels (contract §6).',
});

const HeadlessForm = Type.Object(
  {
    exposeManifest: Type.Boolean({ default: false, description: 'Allow GET of the manifest.' }),
    allowSubmit: Type.Boolean({ default: false, description: 'Allow POST submit (and uploads).' }),
    allowedOrigins: Type.Array(Type.String({ minLength: 1 }), {
      default: [],
      description: 'Origins added to headless.allowedOrigins for this form.',
    }),
  },
  { additionalProperties: false, default: {} },
);

const PROPERTY_NAME = '^[A-Za-z][A-Za-z0-9_]*$';

/** Field handle → a template (`{{ user.email }}`, `{{ properties.orderId }}`) rendered per request. */
const fieldTemplates = (description: string) =>
  Type.Record(Type.String({ pattern: PROPERTY_NAME }), Type.String(), { default: {}, additionalProperties: false, description });

const Profile = Type.Object(
  {
    form: Type.String({ pattern: '^[a-z][a-z0-9-]*$', description: 'Handle of the form this profile serves.' }),
    allowSubmit: Type.Boolean({ default: true, description: 'Allow POST …/submit for this profile.' }),
    requiresAuth: Type.Boolean({ default: false, description: 'Require `Authorization: Bearer <JWT>` from one of `auth.issuers`.' }),
    requiresSignedToken: Type.Boolean({ default: false, description: 'Require a link token svc signed (`svc profiles sign`).' }),
    singleUse: Type.Boolean({ default: false, description: "A signed link is spent by its first completed submission." }),
    properties: Type.Record(
      Type.String({ pattern: PROPERTY_NAME }),
      Type.Object(
        {
          type: StringEnum(['string', 'integer', 'boolean'], { description: 'Type of the value.' }),
          required: Type.Boolean({ default: false, description: 'Whether every request must carry it.' }),
        },
        { additionalProperties: false },
      ),
      { default: {}, additionalProperties: false, description: 'Typed properties: `properties[name]=value` in the manifest query, `properties` in a submit body.' },
    ),
    allowedOrigins: Type.Array(Type.String({ minLength: 1 }), { default: [], description: 'Origins added to headless.allowedOrigins for this profile.' }),
    cache: Type.String({ minLength: 1, default: 'no-store', description: 'Cache-Control of the profile manifest.' }),
    context: Type.Object(
      {
        defaultValues: fieldTemplates('Field handle → template (`{{ user.given_name }}`, `{{ properties.topic }}`): shown as the default.'),
        lockedFields: fieldTemplates('Field handle → template: shown read-only and forced on submit.'),
        hiddenFields: fieldTemplates('Field handle → template: left out of the manifest and forced on submit.'),
      },
      { additionalProperties: false, default: {}, description: 'Per field handle, a template of `user` (the JWT claims), `properties` and `token` (the link claims).' },
    ),
    contextProvider: Type.Union([Type.String({ minLength: 1 }), Type.Null()], {
      default: null,
      description: 'A module exporting canAccessManifest, canSubmit, defaultValues, hiddenFields, lockedFields (relative to the config file).',
    }),
    linkTemplate: Type.Union([Type.String({ minLength: 1 }), Type.Null()], { default: null, description: 'A link with `{token}` that signed links are handed out as.' }),
  },
  { additionalProperties: false },
);

const Status = Type.Object(
  {
    id: Type.Integer({ minimum: 1 }),
    handle: Type.String({ pattern: '^[a-z][a-z0-9-]*$' }),
    name: Type.String({ minLength: 1 }),
    color: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const ConfigSchema = Type.Object(
  {
    server: Type.Object(
      {
        host: Type.String({ default: '0.0.0.0', description: 'Interface to listen on.' }),
        port: Type.Integer({
          minimum: 0,
          maximum: 65535,
          default: 3000,
          description: 'Port to listen on; the PORT environment variable overrides it.',
        }),
        publicUrl: Type.Union([Type.String({ format: 'uri' }), Type.Null()], {
          default: null,
          description:
            "The service's own origin as browsers see it (https://forms.example.com); same-origin requests from it are always allowed, and links svc builds use it, never the Host header. Required under NODE_ENV=production.",
        }),
        trustProxy: Type.Boolean({
          default: false,
          description: 'Trust X-Forwarded-* headers (set when behind a reverse proxy).',
        }),
        bodyLimitKB: Type.Integer({
          minimum: 1,
          maximum: 1024 * 1024,
          default: 256,
          description: 'Largest JSON or form-encoded body accepted, in KiB (413 PAYLOAD_TOO_LARGE above).',
        }),
        headersTimeoutMs: Type.Integer({
          minimum: 1000,
          default: 10_000,
          description: 'Time a client has to send the request line and headers (408 REQUEST_TIMEOUT after).',
        }),
        shutdownGraceMs: Type.Integer({
          minimum: 0,
          maximum: 600_000,
          default: 10_000,
          description: 'On SIGTERM or SIGINT: how long in-flight requests and deliveries may take to finish before the process exits anyway.',
        }),
        requestTimeoutMs: Type.Integer({
          minimum: 1000,
          default: 60_000,
          description: 'Time a client has to send a whole request, body included, so a trickled body cannot hold a connection.',
        }),
        keepAliveTimeoutMs: Type.Integer({
          minimum: 100,
          default: 10_000,
          description: 'How long an idle keep-alive connection stays open.',
        }),
        maxConnectionsPerClient: Type.Integer({
          minimum: 0,
          default: 256,
          description:
            'Open connections one client address may hold at once; more are closed at once (0: no limit). Behind a reverse proxy every client shares its address: raise it or set 0.',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    secret: Type.Unsafe<string | null>({
      type: ['string', 'null'],
      minLength: 32,
      default: null,
      description:
        'Server secret (≥ 32 chars) for CSRF, state tokens and signatures; use SVC_SECRET_FILE for a file. Required unless NODE_ENV=development or --demo.',
    }),
    secretFile: Type.Union([Type.String({ minLength: 1 }), Type.Null()], {
      default: null,
      description: 'A file holding the server secret (a path in a config file is relative to it), read at boot when `secret` is not set; `svc init` writes one with mode 0600.',
    }),
    dataDir: Type.String({
      default: './data',
      description: 'Directory for the embedded database, generated secret and local files.',
    }),
    database: Type.Object(
      {
        url: Type.Union([Type.String({ minLength: 1 }), Type.Null()], {
          default: null,
          description:
            'postgres://user@host/db for PostgreSQL, sqlite:<path> for SQLite; null = SQLite at <dataDir>/svc.db.',
        }),
        poolSize: Type.Integer({ minimum: 1, maximum: 100, default: 10, description: 'PostgreSQL pool size.' }),
        preparedStatements: Type.Boolean({
          default: true,
          description: 'PostgreSQL: run the hot statements as prepared statements; false behind a transaction-pooling PgBouncer older than 1.21.',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    forms: Type.Object(
      {
        dir: Type.String({ default: './forms', description: 'Directory of form definition files (YAML or JSON).' }),
        watch: Type.Boolean({
          default: true,
          description: 'Reload forms when their files change (an invalid edit keeps the previous forms and logs why).',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    headless: Type.Object(
      {
        enabled: Type.Boolean({ default: true, description: 'Master switch; false makes every headless route 404.' }),
        allowedOrigins: OriginList,
        forms: Type.Record(Type.String({ pattern: '^[a-z][a-z0-9-]*$' }), HeadlessForm, {
          default: {},
          // A mistyped handle (Contact, kitchen_sink) must be an error, not a switch that does nothing.
          additionalProperties: false,
          description: 'Per form handle: exposeManifest, allowSubmit, allowedOrigins.',
        }),
        profiles: Type.Record(Type.String({ pattern: '^[a-z][a-z0-9-]*$' }), Profile, {
          default: {},
          additionalProperties: false,
          description: 'Named profiles (contract §9); explicit entries only.',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    sites: SitesSection,
    hosted: HostedSection,
    privacy: PrivacySection,
    auth: AuthSection,
    profileLinks: ProfileLinksSection,
    graphql: Type.Object(
      {
        enabled: Type.Boolean({ default: true, description: 'Serve GraphQL at /graphql (alias /actions/graphql/api).' }),
        introspection: Type.Unsafe<boolean | null>({
          type: ['boolean', 'null'],
          default: null,
          description: 'Allow introspection; null = on under NODE_ENV=development or --demo, off otherwise.',
        }),
        maxDepth: Type.Integer({ minimum: 1, maximum: 100, default: 15, description: 'Deepest selection allowed (QUERY_TOO_DEEP above).' }),
        maxComplexity: Type.Integer({
          minimum: 1,
          default: 50_000,
          description: 'Largest query cost allowed (1 per field, lists multiply by their limit or 10; QUERY_TOO_COMPLEX above).',
        }),
        public: Type.Unsafe<{ read: string[]; submit: string[] } | null>({
          anyOf: [
            { type: 'null' },
            {
              type: 'object',
              additionalProperties: false,
              properties: {
                read: { type: 'array', items: { type: 'string' }, default: [] },
                submit: { type: 'array', items: { type: 'string' }, default: [] },
              },
            },
          ],
          default: null,
          description:
            'Forms anyone may read and submit to over GraphQL (handles, or "*"); null = follow headless.forms exposeManifest / allowSubmit.',
        }),
        tokens: Type.Array(
          Type.Object(
            {
              name: Type.String({ minLength: 1 }),
              sha256: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256 (hex) of the bearer token; the token itself is never stored.' }),
              scopes: Type.Array(
                Type.String({ pattern: '^(forms(:[a-z][a-z0-9-]*)?:read|submissions(:[a-z][a-z0-9-]*)?:create|insights(:[a-z][a-z0-9-]*)?:read)$' }),
                { minItems: 1 },
              ),
            },
            { additionalProperties: false },
          ),
          {
            default: [],
            description:
              'Bearer tokens: scopes forms:read, forms:<handle>:read, submissions:create, submissions:<handle>:create, insights:read, insights:<handle>:read. A valid token stands in for CSRF.',
          },
        ),
      },
      { additionalProperties: false, default: {} },
    ),
    csrf: Type.Object(
      {
        enabled: Type.Boolean({ default: true, description: 'Require a CSRF token on submits.' }),
        cookieName: Type.String({ default: 'svc_csrf', pattern: '^[A-Za-z0-9_-]+$', description: 'The cookie that binds CSRF tokens to a client.' }),
        sameSite: StringEnum(['lax', 'strict', 'none'], {
          default: 'lax',
          description:
            'SameSite of the CSRF cookie; `none` (always Secure) is needed for a front end on another site that is not proxied.',
        }),
        ttlMinutes: Type.Integer({ minimum: 1, default: 1440, description: 'Lifetime of a CSRF token.' }),
      },
      { additionalProperties: false, default: {} },
    ),
    spam: Type.Object(
      {
        blockedKeywords: Type.Array(Type.String({ minLength: 1 }), { default: [], description: 'Site-wide blocked words or phrases (`*` wildcard).' }),
        blockedEmails: Type.Array(Type.String({ minLength: 1 }), { default: [], description: 'Site-wide blocked email addresses (`*@domain` wildcard).' }),
        blockedIps: Type.Array(Type.String({ minLength: 1 }), { default: [], description: 'Site-wide blocked client IPs or CIDR ranges.' }),
      },
      { additionalProperties: false, default: {} },
    ),
    rateLimit: Type.Object(
      {
        enabled: Type.Boolean({ default: true, description: 'Per-client API rate limits (429 with Retry-After).' }),
        submit: Type.Object(
          {
            max: Type.Integer({ minimum: 1, default: 30, description: 'Requests per client per window.' }),
            windowSeconds: Type.Integer({ minimum: 1, default: 60, description: 'Window length in seconds.' }),
          },
          { additionalProperties: false, default: {}, description: 'Submits (REST) per client IP.' },
        ),
        tokens: Type.Object(
          {
            max: Type.Integer({ minimum: 1, default: 120, description: 'Requests per client per window.' }),
            windowSeconds: Type.Integer({ minimum: 1, default: 60, description: 'Window length in seconds.' }),
          },
          { additionalProperties: false, default: {}, description: 'CSRF token requests per client IP.' },
        ),
        graphql: Type.Object(
          {
            max: Type.Integer({ minimum: 1, default: 300, description: 'Requests per client per window.' }),
            windowSeconds: Type.Integer({ minimum: 1, default: 60, description: 'Window length in seconds.' }),
          },
          { additionalProperties: false, default: {}, description: 'GraphQL requests per client IP.' },
        ),
        upload: Type.Object(
          {
            max: Type.Integer({ minimum: 1, default: 60, description: 'Requests per client per window.' }),
            windowSeconds: Type.Integer({ minimum: 1, default: 60, description: 'Window length in seconds.' }),
          },
          { additionalProperties: false, default: {}, description: 'Drag-and-drop uploads and deletes per client IP.' },
        ),
      },
      { additionalProperties: false, default: {} },
    ),
    redis: Type.Object(
      {
        url: Type.Union([Type.String({ minLength: 1 }), Type.Null()], {
          default: null,
          description: 'redis://host:port; shares rate limits and the console sign-in lockout between instances. An outage answers 503, never lifts the limits.',
        }),
        keyPrefix: Type.String({ default: 'svc:', description: 'Prefix of every key svc writes in Redis.' }),
      },
      { additionalProperties: false, default: {} },
    ),
    captcha: CaptchaSection,
    files: FilesSection,
    notifications: Type.Object(
      {
        templatesDir: Type.String({ default: './templates', description: 'Directory of email templates (`<name>/subject.liquid`, `html.liquid`, `text.liquid`); a language folder `<name>/<lang>/` (`de`, `de-AT`, `ar`) with the same files is used for a site in that language, falling back to the base language and then to `<name>/`.' }),
        from: Type.String({ minLength: 3, default: 'svc <no-reply@localhost>', description: 'Sender of notification emails.' }),
        smtpUrl: Type.Union([Type.String({ pattern: '^smtps?://' }), Type.Null()], {
          default: null,
          description: 'smtp(s)://user:pass@host:port; null writes .eml files to <dataDir>/mail instead. Use SVC_NOTIFICATIONS__SMTP_URL_FILE.',
        }),
        fileLinkDays: Type.Integer({
          minimum: 1,
          maximum: 90,
          default: 7,
          description: 'Days the signed file links in admin and dynamic-recipient emails work (needs server.publicUrl).',
        }),
        webhookSecret: Type.Union([Type.String({ pattern: '^whsec_[A-Za-z0-9+/=]{22,}$' }), Type.Null()], {
          default: null,
          description: 'Standard Webhooks signing secret (whsec_ + base64); required for webhooks. Use SVC_NOTIFICATIONS__WEBHOOK_SECRET_FILE.',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    deliveries: Type.Object(
      {
        enabled: Type.Boolean({ default: true, description: 'Run the delivery worker in this process (jobs are queued either way).' }),
        pollMs: Type.Integer({ minimum: 50, maximum: 600_000, default: 2000, description: 'How often the worker looks for due jobs.' }),
        concurrency: Type.Integer({ minimum: 1, maximum: 64, default: 8, description: 'Jobs delivered at once per process.' }),
        maxAttempts: Type.Integer({ minimum: 1, maximum: 50, default: 8, description: 'Attempts before a job is dead-lettered.' }),
        backoffSeconds: Type.Number({ minimum: 0.01, maximum: 3600, default: 30, description: 'First retry delay; doubles each attempt (with jitter, at most 6 h).' }),
        timeoutMs: Type.Integer({ minimum: 100, maximum: 120_000, default: 10_000, description: 'Timeout of one webhook, extra POST or SMTP exchange.' }),
      },
      { additionalProperties: false, default: {} },
    ),
    outbound: Type.Object(
      {
        allowPrivateNetworks: Type.Boolean({ default: false, description: 'Allow webhooks and extra POSTs to private, loopback and link-local addresses.' }),
        allowedHosts: Type.Array(Type.String({ minLength: 1 }), {
          default: [],
          description: 'Host names or IPs allowed even when they resolve to a private address.',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    mailingLists: Type.Object(
      {
        url: Type.Union([Type.String({ pattern: '^https?://' }), Type.Null()], {
          default: null,
          description: 'List provider webhook that receives each opt-in as JSON; null keeps opt-ins in the submission only.',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    console: ConsoleSection,
    metrics: MetricsSection,
    insights: InsightsSection,
    classic: ClassicSection,
    payments: PaymentsSection,
    drafts: Type.Object(
      {
        ttlDays: Type.Integer({ minimum: 1, maximum: 3650, default: 30, description: 'Days a saved draft can be resumed; then it is purged.' }),
      },
      { additionalProperties: false, default: {} },
    ),
    submissions: Type.Object(
      {
        statuses: Type.Array(Status, {
          minItems: 1,
          default: [
            { id: 1, handle: 'open', name: 'Open', color: '#16a34a' },
            { id: 2, handle: 'pending', name: 'Pending', color: '#ca8a04' },
            { id: 3, handle: 'closed', name: 'Closed', color: '#4b5563' },
          ],
          description: 'Statuses a submission can have; a form names its default by handle.',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    admin: AdminSection,
    retention: Type.Object(
      {
        purgeAfterDays: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
          default: null,
          description: "Days submissions are kept before the purge deletes them with their files; a form's settings.purgeAfterDays wins; null keeps them.",
        }),
        spamPurgeAfterDays: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
          default: 30,
          description: 'Days spam-flagged submissions are kept (whatever the form says); null keeps them.',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    log: Type.Object(
      {
        level: StringEnum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { default: 'info', description: 'Lowest level logged: `fatal` … `trace`, or `silent`.' }),
        format: StringEnum(['auto', 'json', 'pretty'], { default: 'auto', description: 'JSON lines, readable lines, or auto: readable on a terminal, JSON otherwise.' }),
      },
      { additionalProperties: false, default: {} },
    ),
  },
  { additionalProperties: false },
);

export type Config = Static<typeof ConfigSchema> & {
  /** Set by the loader: true when running the demo (`svc serve --demo`). */
  readonly demo: boolean;
};
export type HeadlessFormConfig = Static<typeof HeadlessForm>;
