/**
 * One classic post through the one submit pipeline (contract §10, issue #14): the signed
 * `formHash` names the form and page, `svc_payload` carries the state, the CSRF input is checked
 * against the payload it was issued with, and the entries become the submit request. What comes
 * back is the pipeline's result and the payload the page posts next. No request or reply here.
 */
import { SvcError, type Form } from '@svc/core';
import type { FormRegistry } from '../forms/form-registry.js';
import type { Config } from '../config/config-schema.js';
import type { CaptchaVerifier } from '../security/captcha-verifier.js';
import type { SpamFieldNames } from '../security/spam-fields.js';
import { sha256 } from '../security/token-crypto.js';
import type { ReceivedUploads } from '../submissions/submit-files.js';
import { submitForm, type SubmitServices } from '../submissions/submit-pipeline.js';
import type { SubmitResult } from '../submissions/submit-response.js';
import { CLASSIC_ACTION, entryValue, readClassicPost, type Entries } from './classic-entries.js';
import type { ClassicCarrier } from './classic-carrier.js';
import { checkpointPayment } from '../payments/payment-checkpoint.js';
import type { PaymentContext } from '../payments/payment-context.js';
import { paymentFieldOf } from '../payments/payment-manifest.js';
import { intentIdOf } from '../payments/payment-intent-service.js';
import type { ClassicPayload, ClassicSeals } from './classic-payload.js';
import type { Site } from '../sites/site-registry.js';
import type { FormLocalizer } from '../forms/form-translations.js';

export interface ClassicPostServices {
  readonly config: Config;
  readonly forms: FormRegistry;
  readonly submit: SubmitServices;
  readonly seals: ClassicSeals;
  readonly carrier: ClassicCarrier;
  readonly spamFields: SpamFieldNames;
  readonly captcha: Pick<CaptchaVerifier, 'activeFor'>;
  readonly payments: PaymentContext;
  readonly payloadTtlMs: number;
  /** A form in a site's language (issue #34); absent: posts are checked in the form's own words. */
  readonly localize?: FormLocalizer;
}

export interface ClassicPostInput {
  readonly entries: Entries;
  /** What the entries' formHash names, when the caller has read it already (classicForm). */
  readonly named?: { readonly form: Form; readonly pageIndex: number; readonly sessionId: string | null };
  readonly ip: string | null;
  /** The browser's binding cookie: a payment checkpoint is its creator's alone (issue #32). */
  readonly browser?: string;
  /** Files a multipart post streamed in, and the values holding their ids. */
  readonly uploads?: ReceivedUploads;
  readonly fileValues?: Readonly<Record<string, unknown>>;
  /** The site posted on (`?site=` on the form's action, issue #34). */
  readonly site?: Site;
}

export interface ClassicPostOutcome {
  readonly form: Form;
  readonly result: SubmitResult;
  /** The payload for the page's next post: the same form, its state moved on. */
  readonly next: ClassicPayload;
  /** What the page carries for it (sealed payload or session id); null once the form is finished. */
  readonly carried: string | null;
  /** Where a finished post goes instead of the form's returnUrl: a signed `formReturnUrl`, or null. */
  readonly returnUrl: string | null;
  /** The values as posted, to show again when the post was refused. */
  readonly posted: Readonly<Record<string, unknown>>;
}

/** The form a post names: its signed hash first, so nothing else is read for a forged one. */
export function classicForm(services: Pick<ClassicPostServices, 'forms' | 'seals' | 'config'>, entries: Entries): { form: Form; pageIndex: number; sessionId: string | null } {
  const { formId, pageIndex, sessionId } = services.seals.readHash(entryValue(entries, 'formHash'));
  const form = services.forms.list().find((f) => f.id === formId);
  if (!form || pageIndex >= form.pages.length) throw new SvcError('PAYLOAD_TAMPERED');
  if (services.config.headless.forms[form.handle]?.allowSubmit !== true) throw new SvcError('SUBMIT_NOT_ALLOWED');
  return { form, pageIndex, sessionId };
}

/** The state a post carries: its `svc_payload`, or the stored session its formHash names. */
export function carriedBy(services: Pick<ClassicPostServices, 'carrier'>, entries: Entries, sessionId: string | null): string | null | undefined {
  return services.carrier.storage === 'database' ? sessionId : entryValue(entries, 'svc_payload');
}

const REPLAY_WAIT_MS = 100;
const REPLAY_TRIES = 50;

/**
 * A browser shows the answer to the last of two quick posts, so the second of a double click must
 * not answer "still being processed": it waits for the first and answers what the first did.
 */
async function submitOnce(services: SubmitServices, form: Form, input: Parameters<typeof submitForm>[2]): Promise<SubmitResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await submitForm(services, form, input);
    } catch (error) {
      if (!(error instanceof SvcError) || error.code !== 'IDEMPOTENCY_CONFLICT' || attempt >= REPLAY_TRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, REPLAY_WAIT_MS));
    }
  }
}

export async function runClassicPost(services: ClassicPostServices, input: ClassicPostInput): Promise<ClassicPostOutcome> {
  const { entries } = input;
  if (entryValue(entries, 'action') !== CLASSIC_ACTION) throw new SvcError('PAYLOAD_INVALID', `The post must carry action=${CLASSIC_ACTION}.`);
  const { form, pageIndex, sessionId } = input.named ?? classicForm(services, entries);
  const now = services.submit.now().getTime();
  const payload = await services.carrier.open(form, carriedBy(services, entries, sessionId), now);
  const returnUrl = services.seals.readReturnUrl(form, entryValue(entries, 'formReturnUrl'));
  const honeypotName = form.settings.spam.honeypot ? services.spamFields.honeypotName(form) : null;
  const captcha = services.captcha.activeFor(form);
  const post = readClassicPost(form, entries, {
    csrfName: 'SVC_CSRF_TOKEN',
    honeypotName,
    captchaNames: captcha ? [captcha.name] : [],
    fillTimestamp: payload.fillTimestamp,
    stateToken: payload.state,
  });
  // Freeform's classic pages post "submit" from every page's button: on an earlier page it means the next one.
  const intent = post.request.intent === 'submit' && pageIndex < form.pages.length - 1 ? 'next' : post.request.intent;
  const values = { ...post.request.values, ...(input.fileValues ?? {}) };
  // The JavaScript test is for pages that run scripts; a classic page may be drawn without any, so
  // its post answers the test itself. The honeypot, fill time, captchas and spam lists still apply.
  const javascriptTest = form.settings.spam.javascriptTest
    ? { javascriptTest: { name: services.spamFields.javascriptTestName(form), value: services.spamFields.javascriptTestValue(form) } }
    : {};
  // The same rendered form posting the same entries again (a double click, a resent page) is one
  // request: it replays the first answer instead of storing twice.
  const replayKey = `classic:${payload.nonce}:${sha256(JSON.stringify(entries.filter(([name]) => name !== 'SVC_CSRF_TOKEN')))}`;
  // CSRF is on unless the config turns it off; the input is the one issued with this payload.
  if (services.submit.csrf) services.seals.checkCsrf(payload, post.csrf);
  const submitInput = {
    request: { ...post.request, intent, values, meta: { ...post.request.meta, ...javascriptTest } },
    csrf: 'trusted' as const,
    ip: input.ip,
    idempotencyKey: replayKey,
    stateMaxAgeMs: services.payloadTtlMs,
    ...(input.uploads ? { uploads: input.uploads } : {}),
    ...(input.site ? { site: input.site } : {}),
  };
  // The answer's messages in the site's language; the payload and its seals stay the form's own.
  const siteForm = input.site && services.localize ? services.localize(form, input.site.language) : form;
  // contract §8: the final post of a form that takes a payment is its checkpoint; the page's script
  // then confirms with Stripe.js and the payment's callback stores the submission.
  const paymentIntentId = entryValue(entries, 'paymentIntentId');
  const result =
    intent === 'submit' && paymentFieldOf(form) && paymentIntentId !== undefined
      ? await checkpointPayment(services.payments, siteForm, { ...submitInput, integration: entryValue(entries, 'integration'), paymentIntentId: intentIdOf(paymentIntentId), ...(input.browser ? { browser: input.browser } : {}) })
      : await submitOnce(services.submit, siteForm, submitInput);
  const next = { ...payload, state: result.body.state.token };
  // A finished form starts afresh; otherwise the state moves on where it is kept.
  const carried = result.body.complete ? null : await services.carrier.keep(form, next, sessionId);
  return { form, result, next, carried, returnUrl, posted: values };
}
