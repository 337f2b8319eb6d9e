/**
 * The submit path as one ordered pipeline (DESIGN.md principle 3): CSRF -> idempotency ->
 * state/draft -> rules -> validate -> spam verdict -> captcha and limits -> persist -> respond.
 * Transports (REST, GraphQL, classic post, payment checkpoint, profiles) parse their input into a
 * SubmitRequest and call `submitForm`; none of them validates or stores on its own. The steps that
 * shape state and values live in submit-steps.ts, the spam signals in submit-spam.ts.
 */
import { FIELD_MESSAGES, SvcError, fieldMessages, computeVisibility, isEmptyValue, nextVisiblePage, previousVisiblePage, type Form, type Values, type Visibility } from '@svc/core';
import type { Kysely } from 'kysely';
import type { Database } from '../storage/database-schema.js';
import type { WriteBatcher } from '../storage/write-batcher.js';
import type { CsrfTokens } from '../security/csrf-tokens.js';
import type { SpamFieldNames } from '../security/spam-fields.js';
import type { DraftService, LoadedDraft } from '../drafts/draft-service.js';
import type { StateTokens } from './state-token.js';
import type { SubmitRequest } from './submit-request.js';
import { submitResult, withStateFiles, type SubmitResult } from './submit-response.js';
import { draftFiles } from '../drafts/draft-files.js';
import { countLimitedSubmissions, type SubmissionClient, type SubmissionProfile } from './submission-repository.js';
import type { SpamLists } from '../security/spam-lists.js';
import type { CaptchaVerifier } from '../security/captcha-verifier.js';
import type { FillTimestamps } from '../security/fill-timestamps.js';
import { requestFingerprint, type IdempotencyStore } from './idempotency-store.js';
import { loadState, mergeValues, normaliseAll, readHandles, resultParts, sealNext, storedValues, validateScope, type Step } from './submit-steps.js';
import type { UploadService } from '../files/upload-service.js';
import type { DeliveryService } from '../notifications/delivery-service.js';
import { allIds, checkUploads, fileSlots, type ReceivedUploads } from './submit-files.js';
import { FILES_GONE, FilesGone, persist, type Claim, type PreparedSubmission } from './submission-persist.js';
import { browserBindingHash } from '../security/browser-binding.js';
import { withKeys } from './object-shapes.js';
import { DRAFT_REFUSED, spamReasonsFor, spamRejected } from './submit-spam.js';
import type { Site } from '../sites/site-registry.js';
import { emptyTrace, type StepListener, type StepTrace } from './submit-trace.js';
import type { ValueSealer } from '../privacy/privacy-sealer.js';

export interface SubmitServices {
  readonly db: Kysely<Database>;
  /** Where submissions and their outbox rows are written: shared transactions on SQLite (issue #17). */
  readonly writes: WriteBatcher;
  readonly csrf: CsrfTokens | null;
  readonly stateTokens: StateTokens;
  readonly spamFields: SpamFieldNames;
  readonly drafts: DraftService;
  readonly idempotency: IdempotencyStore;
  readonly spamLists: SpamLists;
  readonly captcha: CaptchaVerifier;
  readonly fillTimestamps: FillTimestamps;
  /** HMAC of a client IP (per-IP limits without keeping addresses). */
  readonly ipHash: (ip: string) => string;
  readonly uploads: UploadService;
  readonly deliveries: DeliveryService;
  /** Days a draft lives (contract §5), so the uploads it names are kept as long. */
  readonly draftTtlDays: number;
  readonly now: () => Date;
  /** Seals values at rest (issue #37 item 1); the one instance of the composition root. */
  readonly sealer: ValueSealer;
  /** Hears every answered submit (metrics, issue #16). */
  readonly observe?: (form: Form, result: SubmitResult) => void;
  /** Hears every answered step with where it came from (insights, issue #38). */
  readonly steps?: StepListener;
}

export interface SubmitInput {
  readonly request: SubmitRequest;
  /** What the transport found: the cookie binding and token, or 'trusted' (e.g. a bearer token). */
  readonly csrf: { readonly binding: string | undefined; readonly token: string | undefined } | 'trusted';
  readonly ip: string | null;
  /** From the `Idempotency-Key` header; `meta.idempotencyKey` is read when absent. */
  readonly idempotencyKey?: string;
  /**
   * Submit every page at once, without a state token: transports with one call per submission
   * (the GraphQL mutation) use it. Values of all fields are read; all visible fields validated.
   */
  readonly wholeForm?: boolean;
  /** Files a multipart submit streamed in before the pipeline ran (contract §7). */
  readonly uploads?: ReceivedUploads;
  /** The browser's binding cookie: it may claim its own drag-and-drop uploads (contract §7). */
  readonly browser?: string;
  /**
   * The payment checkpoint (contract §8): validate as a final submit, then hand what would be
   * stored to this function instead of storing it; the payment's webhook or callback stores it.
   */
  readonly checkpoint?: (prepared: PreparedSubmission) => Promise<void>;
  /**
   * A profile submit (contract §9): recorded with the submission, and a claim that runs in its
   * transaction (a single-use link spent by it, exactly once).
   */
  readonly profile?: { readonly record: SubmissionProfile; readonly claim?: Claim };
  /**
   * The site submitted on (issue #34): recorded with the submission; `form` is already the site's
   * translation, and the built-in messages follow its language. Absent: the default site's.
   */
  readonly site?: Site;
  /** How old a multi-page state may be (default 30 minutes): the classic payload's own lifetime. */
  readonly stateMaxAgeMs?: number;
  /**
   * The transport cannot carry a javascript test (the per-form GraphQL mutation, contract §11): an
   * absent one is no spam signal, a sent one is checked.
   */
  readonly javascriptTestOptional?: boolean;
}

function assertCsrf(services: SubmitServices, input: SubmitInput): void {
  if (!services.csrf || input.csrf === 'trusted') return;
  if (!services.csrf.verify(input.csrf.binding, input.csrf.token, services.now().getTime())) throw new SvcError('CSRF_INVALID');
}

/** What the client said of itself, as stored (contract §1); null when it said nothing. */
function clientOf(request: SubmitRequest): SubmissionClient | null {
  const { client, clientVersion } = request.meta;
  const { sourceUrl } = request.context;
  if (client === undefined && clientVersion === undefined && sourceUrl === undefined) return null;
  return { name: client ?? null, version: clientVersion ?? null, sourceUrl: sourceUrl ?? null };
}

/**
 * A visible payment field a plain submit would leave unpaid (contract §8): a paid form is finished
 * by its payment, never by a submit. An optional payment left empty is skipped, as Freeform does.
 */
function unpaidPaymentField(form: Form, visibility: Visibility, normalised: Values): string | null {
  for (const field of form.fields) {
    if (field.type !== 'payment' || visibility.hiddenFields.has(field.handle as string) || visibility.hiddenPages.has(field.pageIndex)) continue;
    if (field.required === true || !isEmptyValue(normalised[field.handle as string] ?? null)) return field.handle as string;
  }
  return null;
}

/** The checkpoint's end of a valid final submit: held for the payment, nothing stored yet. */
async function held(services: SubmitServices, step: Step, input: SubmitInput, values: Values, spamReasons: readonly string[], draft: LoadedDraft | null, now: number): Promise<SubmitResult> {
  const checkpoint = input.checkpoint as NonNullable<SubmitInput['checkpoint']>;
  await checkpoint({ values, spamReasons, ip: input.ip, client: clientOf(step.request), draftToken: draft?.token ?? null, site: input.site?.handle ?? null });
  return submitResult('validated', resultParts(step, step.state.pageIndex, sealNext(services.stateTokens, step, step.state.pageIndex, step.state.pageHistory, now)));
}

async function submitted(services: SubmitServices, step: Step, submission: Awaited<ReturnType<typeof persist>>, stored: Values, date: Date): Promise<SubmitResult> {
  const url = step.form.settings.returnUrl;
  // New keys before the spread, never after it: see withKeys (issue #17).
  const result = submitResult('submitted', {
    message: step.form.settings.successMessage,
    redirect: url ? { url, delay: 0 } : null,
    submission,
    ...resultParts(step, step.state.pageIndex, null),
  });
  const files = submission && fileSlots(step.form, stored).length > 0 ? await services.uploads.listForSubmissions([submission.id]) : [];
  return withKeys(result, { stored: { values: stored, createdAt: date.toISOString(), files } });
}

/** contract §5: saveDraft skips validation but not spam checks; a loaded draft is updated in place. */
async function saveDraft(
  services: SubmitServices,
  step: Step,
  input: SubmitInput,
  draft: LoadedDraft | null,
  date: Date,
  fileErrors: Readonly<Record<string, readonly string[]>>,
): Promise<SubmitResult> {
  const { form, state } = step;
  // A draft may be incomplete, but the files it names must be the client's own.
  if (Object.keys(fileErrors).length > 0) {
    return submitResult('validation_failed', {
      ...resultParts(step, state.pageIndex, sealNext(services.stateTokens, step, state.pageIndex, state.pageHistory, date.getTime())),
      message: form.settings.errorMessage,
      fieldErrors: fileErrors,
    });
  }
  const spamReasons = spamReasonsFor(services, step, normaliseAll(form, step.raw, step.messages), input);
  // A draft is never simulated (issue #11): a token that resumes nothing would mislead a person
  // whose client forgot the honeypot far more than it would slow a bot down.
  if (spamReasons.length > 0) return spamRejected(services, step, date.getTime(), DRAFT_REFUSED);
  const pair = await services.drafts.save(form, { values: step.raw, pageIndex: state.pageIndex, pageHistory: state.pageHistory }, draft, date);
  // The draft's files outlive the usual unattached window for as long as the draft does.
  await services.uploads.hold(form, allIds(fileSlots(form, step.raw)), new Date(date.getTime() + services.draftTtlDays * 86_400_000));
  return submitResult('draft_saved', {
    ...resultParts(step, state.pageIndex, sealNext(services.stateTokens, step, state.pageIndex, state.pageHistory, date.getTime())),
    draft: { ...pair, resumeUrl: services.drafts.resumeUrl(form, pair.token, pair.key) },
  });
}

/** Which limit of the form this submission would break, if any (issue #4). */
async function limitBroken(services: SubmitServices, form: Form, ip: string | null, date: Date): Promise<string | null> {
  const { total, perIp } = form.settings.limits;
  if (total !== null && (await countLimitedSubmissions(services.db, form.id)) >= total) {
    return 'This form has reached its submission limit.';
  }
  if (perIp !== null && ip) {
    const since = new Date(date.getTime() - perIp.periodMinutes * 60_000).toISOString();
    if ((await countLimitedSubmissions(services.db, form.id, { since, ipHash: services.ipHash(ip) })) >= perIp.count) {
      return 'Too many submissions from your address; please try again later.';
    }
  }
  return null;
}

async function submitWhole(
  services: SubmitServices,
  step: Step,
  input: SubmitInput,
  draft: LoadedDraft | null,
  date: Date,
  fileErrors: Readonly<Record<string, readonly string[]>>,
): Promise<SubmitResult> {
  const { form, request, state } = step;
  const now = date.getTime();
  const { values, errors, visibility, normalised } = validateScope(step, 'form', fileErrors);
  const unpaid = input.checkpoint ? null : unpaidPaymentField(form, visibility, normalised);
  // "Required" says nothing useful of a payment: say what to do instead.
  if (unpaid) errors[unpaid] = [step.messages.paymentRequired];
  // contract §4, as Freeform: validation comes first. Invalid values answer their field errors
  // whatever the spam signals say, and are never stored, flagged or not.
  if (Object.keys(errors).length > 0) {
    return submitResult('validation_failed', {
      ...resultParts(step, state.pageIndex, sealNext(services.stateTokens, step, state.pageIndex, state.pageHistory, now)),
      message: form.settings.errorMessage,
      fieldErrors: errors,
    });
  }
  // The spam verdict judges an otherwise valid request; the captcha and limits guard real ones.
  const spamReasons = spamReasonsFor(services, step, normalised, input);
  if (spamReasons.length > 0) {
    if (form.settings.spam.behavior === 'display_errors') return spamRejected(services, step, now);
    // contract §4 simulate_success: stored flagged, answered exactly like a real success.
    const stored = storedValues(form, normalised, visibility, values);
    if (input.checkpoint) return held(services, step, input, stored, spamReasons, draft, now);
    const flagged = await submitted(services, step, await persist(services, { form, client: clientOf(request), values: stored, spamReasons, ip: input.ip, date, profile: input.profile, site: input.site?.handle ?? null }), stored, date);
    return { ...flagged, spam: true };
  }
  const captcha = await services.captcha.verify(form, request.meta.captchas, input.ip);
  if (captcha !== 'ok') {
    const message =
      captcha === 'failed' ? 'Please complete the captcha and try again.' : 'The captcha could not be verified right now; please try again.';
    return submitResult('captcha_failed', {
      ...resultParts(step, state.pageIndex, sealNext(services.stateTokens, step, state.pageIndex, state.pageHistory, now)),
      message,
      formErrors: [message],
    });
  }
  const limit = await limitBroken(services, form, input.ip, date);
  if (limit) {
    return submitResult('limit_reached', {
      ...resultParts(step, state.pageIndex, sealNext(services.stateTokens, step, state.pageIndex, state.pageHistory, now)),
      message: limit,
      formErrors: [limit],
    });
  }
  const stored = storedValues(form, normalised, visibility, values);
  if (input.checkpoint) return held(services, step, input, stored, [], draft, now);
  let submission: Awaited<ReturnType<typeof persist>>;
  try {
    submission = await persist(services, { form, client: clientOf(request), values: stored, spamReasons: [], ip: input.ip, date, profile: input.profile, site: input.site?.handle ?? null });
  } catch (error) {
    if (!(error instanceof FilesGone)) throw error;
    return submitResult('validation_failed', {
      ...resultParts(step, state.pageIndex, sealNext(services.stateTokens, step, state.pageIndex, state.pageHistory, now)),
      message: form.settings.errorMessage,
      formErrors: [FILES_GONE],
    });
  }
  // contract §5: a successful final submit deletes the draft it came from.
  if (draft) await services.drafts.delete(draft.token);
  return submitted(services, step, submission, stored, date);
}

async function runSteps(services: SubmitServices, form: Form, input: SubmitInput, trace: StepTrace): Promise<SubmitResult> {
  const date = services.now();
  const { request } = input;
  let draft: LoadedDraft | null = null;
  const { draftToken, draftKey } = request.context;
  if (draftToken !== undefined || draftKey !== undefined) {
    draft = draftToken && draftKey ? await services.drafts.load(form, draftToken, draftKey, date) : null;
  }
  // contract §5: a draft that cannot be loaded is passed over, as Freeform does, with one warning
  // that reads the same for an unknown token and a wrong key (no oracle).
  const result = await runLoaded(services, form, input, draft, date, trace);
  // The loaded draft's uploads by name and size, for a client that did not upload them (issue #31).
  if (draft) return withStateFiles(result, await draftFiles(services.uploads, form, draft.values, result.body.state.values));
  if (draftToken === undefined && draftKey === undefined) return result;
  return { ...result, body: { ...result.body, warnings: [...result.body.warnings, 'draft_not_loaded'] } };
}

async function runLoaded(services: SubmitServices, form: Form, input: SubmitInput, draft: LoadedDraft | null, date: Date, trace: StepTrace): Promise<SubmitResult> {
  const now = date.getTime();
  const { request } = input;
  const wholeForm = input.wholeForm === true;
  const loaded = loadState(services.stateTokens, form, request, { wholeForm, draft, now, ...(input.stateMaxAgeMs ? { stateMaxAgeMs: input.stateMaxAgeMs } : {}) });
  if ('httpStatus' in loaded) return loaded;
  const step: Step = {
    form,
    request,
    multiPage: form.pages.length > 1 && !wholeForm,
    state: loaded,
    // saveDraft keeps what the person typed on every page: the official client posts all values.
    raw: mergeValues(form, loaded, request.values, { wholeForm: wholeForm || request.intent === 'saveDraft', keepLoaded: draft !== null }),
    messages: input.site ? fieldMessages(input.site.language) : FIELD_MESSAGES,
  };
  trace.state = loaded;
  trace.multiPage = step.multiPage;
  trace.resumed = draft !== null && request.context.stateToken === undefined;

  const fileErrors = request.intent === 'back' ? {} : await checkUploads(services.uploads, form, request, step.raw, readHandles(step), input.uploads, step.state.values, browserBindingHash(input.browser));
  if (request.intent === 'saveDraft') return saveDraft(services, step, input, draft, date, fileErrors);
  if (request.intent === 'submit') return submitWhole(services, step, input, draft, date, fileErrors);

  if (request.intent === 'back') {
    const visibility = computeVisibility(form, normaliseAll(form, step.raw, step.messages));
    const history = [...step.state.pageHistory];
    const target = history.pop() ?? previousVisiblePage(form, visibility, step.state.pageIndex) ?? 0;
    return submitResult('page_valid', resultParts(step, target, sealNext(services.stateTokens, step, target, history, now)));
  }

  // validate and next check the current page (or the whole single-page form).
  const { errors, visibility } = validateScope(step, 'page', fileErrors);
  const current = step.state.pageIndex;
  const stay = () => sealNext(services.stateTokens, step, current, step.state.pageHistory, now);
  if (Object.keys(errors).length > 0) {
    return submitResult('validation_failed', { ...resultParts(step, current, stay()), message: form.settings.errorMessage, fieldErrors: errors });
  }
  if (request.intent === 'validate') return submitResult('validated', resultParts(step, current, stay()));
  const next = step.multiPage ? nextVisiblePage(form, visibility, current) : null;
  // `next` on the last visible page (or a single page): valid, and nowhere further to go.
  if (next === null) return submitResult('page_valid', resultParts(step, current, stay()));
  return submitResult('page_valid', resultParts(step, next, sealNext(services.stateTokens, step, next, [...step.state.pageHistory, current], now)));
}

export async function submitForm(services: SubmitServices, form: Form, input: SubmitInput): Promise<SubmitResult> {
  const trace = emptyTrace();
  const result = await submitOnceChecked(services, form, input, trace);
  services.observe?.(form, result);
  // The one place every transport's every answer passes (issue #38): counted once, here.
  services.steps?.({ form, request: input.request, site: input.site?.handle ?? null, result, trace, at: services.now() });
  return result;
}

async function submitOnceChecked(services: SubmitServices, form: Form, input: SubmitInput, trace: StepTrace): Promise<SubmitResult> {
  assertCsrf(services, input);
  const key = input.idempotencyKey ?? input.request.meta.idempotencyKey;
  if (key === undefined) return runSteps(services, form, input, trace);
  // contract §4: the same key with the same request replays the first answer; another request is a conflict.
  const { idempotencyKey: _key, ...meta } = input.request.meta;
  // A multipart retry stores its files again under new ids, so it is compared by what was posted.
  const values = input.uploads ? input.uploads.fingerprint : input.request.values;
  // A profile submit's properties and person are part of the request (contract §9); a plain
  // submit's fingerprint stays what it was, so keys already stored keep replaying.
  const profile = input.profile ? [input.profile.record] : [];
  const fingerprint = requestFingerprint([form.uid, input.request.intent, values, meta, input.request.context, input.wholeForm === true, ...profile]);
  const outcome = await services.idempotency.begin(form.id, key, fingerprint, services.now());
  if (outcome.kind === 'replay') {
    trace.replay = true;
    return outcome.result;
  }
  if (outcome.kind === 'conflict') throw new SvcError('IDEMPOTENCY_CONFLICT', outcome.message);
  try {
    const result = await runSteps(services, form, input, trace);
    await services.idempotency.complete(form.id, key, result);
    return result;
  } catch (error) {
    await services.idempotency.abandon(form.id, key);
    throw error;
  }
}
