/**
 * The classic routes (interface.md §2.10, §4.7; contract §10): the form-properties JSON, its
 * no-store visitor parts, and the form post at `POST /svc/submit` (or any other path no POST route
 * takes, `/` included, whose body says `action=svc/submit`), form-encoded or multipart. Thin:
 * parsing and shaping here, the post itself in classic-post.ts.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SvcError, type Form } from '@svc/core';
import type { AppContext } from '../http/app-context.js';
import { resolveHeadlessForm } from '../http/form-access.js';
import { withLimit } from '../http/rate-limit-hooks.js';
import { manifestData, NOT_A_VIEW_HEADER } from '../forms/manifest-builder.js';
import { readMultipartSubmit } from '../files/multipart-submit.js';
import { randomToken } from '../security/token-crypto.js';
import { readBrowserBinding } from '../security/browser-binding.js';
import type { SubmitBody } from '../submissions/submit-response.js';
import { plainPage } from '../http/html-page.js';
import { backTo, classicJson, returnUrlFor, safeReferer, wantsJson } from './classic-answer.js';
import { CLASSIC_ACTION, entryValue, type Entries } from './classic-entries.js';
import type { ClassicFeature } from './classic-types.js';
import type { PaymentContext } from '../payments/payment-context.js';
import type { ClassicFlash } from './classic-flash.js';
import type { ClassicPayload } from './classic-payload.js';
import { carriedBy, classicForm, runClassicPost, type ClassicPostServices } from './classic-post.js';
import { buildClassicProperties, visitorParts, type ClassicRenderDeps } from './classic-properties.js';
import { siteOfQuery } from '../sites/site-registry.js';
import { classicActionUrl, classicPageWords, classicSiteHandle, localizedRefusal, siteLanguageOf } from './classic-language.js';
import { classicAnyPathSchema, classicPostSchema, classicPropertiesSchema, classicSessionSchema } from './classic-schemas.js';

export const CLASSIC_SUBMIT_PATH = '/svc/submit';

export async function classicRoutes(app: FastifyInstance, ctx: AppContext, classic: ClassicFeature, payments: PaymentContext): Promise<void> {
  const { submit, config } = ctx;
  const render: ClassicRenderDeps = { seals: classic.seals, storage: classic.carrier.storage, csrf: ctx.csrf, spamFields: submit.spamFields, actionUrl: CLASSIC_SUBMIT_PATH, now: submit.now };
  const postServices: ClassicPostServices = {
    config,
    forms: ctx.forms,
    submit,
    seals: classic.seals,
    carrier: classic.carrier,
    spamFields: submit.spamFields,
    captcha: submit.captcha,
    payments,
    payloadTtlMs: classic.payloadTtlMs,
    localize: ctx.localize,
  };

  /** A new rendered form: its nonce binds the CSRF input, its fill timestamp the honeypot's timing. */
  const freshPayload = (form: Form): ClassicPayload => {
    const now = submit.now().getTime();
    return { formUid: form.uid, nonce: randomToken(16), renderedAt: now, fillTimestamp: submit.fillTimestamps.issue(form, now), state: null };
  };

  /** The flash's state when it still opens, else a new form (a finished or expired one starts afresh). */
  const stateOf = async (form: Form, flash: ClassicFlash | null): Promise<{ payload: ClassicPayload; carried: string }> => {
    if (flash?.carried) {
      const payload = await classic.carrier.open(form, flash.carried, submit.now().getTime()).catch(() => null);
      if (payload) return { payload, carried: flash.carried };
    }
    const payload = freshPayload(form);
    return { payload, carried: await classic.carrier.keep(form, payload, null) };
  };

  const propertiesPath = config.classic.propertiesPath.replace('{handle}', ':handle');
  app.get<{ Params: { handle: string }; Querystring: Record<string, unknown> }>(propertiesPath, { config: { cors: 'form' }, schema: classicPropertiesSchema }, async (request, reply) => {
    ctx.guard.check(request, reply);
    const form = resolveHeadlessForm(ctx, request.params.handle, 'manifest');
    const site = ctx.sites.resolve(siteOfQuery(request.query));
    const siteForm = ctx.localize(form, site.language);
    const key = request.query?.['flash'];
    const flash = typeof key === 'string' ? await classic.flashes.take(form.id, key) : null;
    const { payload, carried } = await stateOf(form, flash);
    const pageIndex = flash && !flash.finished && flash.pageIndex < form.pages.length ? flash.pageIndex : 0;
    // A view (issue #38) is a page drawn anew. One a post sent the browser back to (its flash: the
    // next page, the errors, the success, or that URL reloaded) belongs to the journey's view; the
    // hosted page's no-JavaScript fallback too, since its element's manifest is the view.
    if (key === undefined && request.headers[NOT_A_VIEW_HEADER] === undefined) ctx.manifests.view(siteForm, site);
    const data = manifestData(ctx.manifests.get(siteForm, site), () => payload.fillTimestamp ?? '');
    // A site's page posts back naming its site, so the answer is in its language too.
    const properties = buildClassicProperties({ ...render, actionUrl: classicActionUrl(CLASSIC_SUBMIT_PATH, site) }, siteForm, data, { payload, carried, pageIndex, flash });
    // A page may ask to send the finished form elsewhere: only to an origin the form allows, signed.
    const asked = request.query?.['returnUrl'];
    const formReturnUrl = typeof asked === 'string' ? classic.seals.signReturnUrl(form, allowedReturnUrl(form, asked)) : null;
    // Per visitor (payload, CSRF, flash): never cached by anyone.
    return reply.header('Cache-Control', 'no-store').send({
      ...properties,
      ...(formReturnUrl ? { formReturnUrl } : {}),
      ...(typeof key === 'string' && !flash ? { warnings: ['flash_not_found'] } : {}),
    });
  });

  app.get<{ Params: { handle: string } }>(`${propertiesPath}/session`, { config: { cors: 'form' }, schema: classicSessionSchema }, async (request, reply) => {
    ctx.guard.check(request, reply);
    const form = resolveHeadlessForm(ctx, request.params.handle, 'manifest');
    // The parts a cached page must not reuse: a fresh form's hash, payload, CSRF input and honeypot.
    const { payload, carried } = await stateOf(form, null);
    // A cached page's visitor starts a journey here: a view (issue #38), on the default site (no site is named).
    ctx.manifests.view(form);
    return reply.header('Cache-Control', 'no-store').send(visitorParts(render, form, { payload, carried, pageIndex: 0, flash: null }));
  });

  const answerPost = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('Cache-Control', 'no-store');
    const multipart = request.isMultipart();
    // Only a form post (entries) or multipart is classic; anything else sent here is not ours.
    if (!multipart && !(request.body instanceof FormEntries)) return reply.callNotFound();
    const collected: [string, string][] = [];
    let entries: Entries = multipart ? collected : (request.body as FormEntries).entries;
    let form: Form | null = null;
    const json = wantsJson(request);
    try {
      let fileValues: Record<string, unknown> | undefined;
      let uploads;
      if (multipart) {
        // Entries arrive before files in a well-formed page; the form, payload and CSRF are checked
        // before the first file is stored, so a forged post stores nothing.
        // Entries arrive before files in a well-formed page; the form, its origin, payload and CSRF
        // input are checked when the first file arrives, before it is stored: a forged post stores nothing.
        let checked: Form | null = null;
        const check = async (): Promise<Form> => {
          if (checked) return checked;
          const { form: named, sessionId } = classicForm(postServices, collected);
          assertOrigin(request, named);
          const payload = await classic.carrier.open(named, carriedBy(postServices, collected, sessionId), submit.now().getTime());
          if (ctx.csrf) classic.seals.checkCsrf(payload, entryValue(collected, 'SVC_CSRF_TOKEN'));
          form = named;
          return (checked = named);
        };
        // Files are checked through `check` (the form getter); the gate itself has nothing to add.
        const gate = { offer: () => undefined, require: () => undefined, get verified() { return checked !== null; } };
        const read = await readMultipartSubmit(ctx, check, request, gate, { collect: (name, value) => collected.push([name, value]) });
        entries = collected;
        fileValues = read.body.values as Record<string, unknown>;
        uploads = read.uploads;
      }
      // Another svc path without `action=svc/submit` answers as if this handler were not here.
      if (entryValue(entries, 'action') !== CLASSIC_ACTION) return request.url.split('?')[0] === CLASSIC_SUBMIT_PATH ? missingAction() : reply.callNotFound();
      const named = classicForm(postServices, entries);
      form = assertOrigin(request, named.form);
      const browser = readBrowserBinding(request, config.csrf);
      const site = ctx.sites.resolve(classicSiteHandle(request.query, entries, form));
      const outcome = await runClassicPost(postServices, { entries, named, ip: request.ip, site, ...(browser ? { browser } : {}), ...(uploads ? { uploads, fileValues } : {}) });
      const body = outcome.returnUrl && outcome.result.body.complete ? { ...outcome.result.body, redirect: { url: outcome.returnUrl, delay: 0 } } : outcome.result.body;
      return await answer(request, reply, json, outcome.form, body, outcome.carried, outcome.posted, site.language);
    } catch (error) {
      if (!(error instanceof SvcError)) throw error;
      // The refusal in the language of the site the post names, when it names a known one.
      const language = siteLanguageOf(ctx.sites, classicSiteHandle(request.query, entries, form));
      const refusal = localizedRefusal(error, language);
      if (!form || json) throw refusal;
      // A refused post of a known form goes back to its page with the reason, once.
      const flash: ClassicFlash = { pageIndex: 0, values: {}, errors: {}, formErrors: [refusal.message], carried: null, finished: false, message: null, submissionId: null, draft: null };
      return back(request, reply, form, flash, refusal.status, [refusal.message], language);
    }
  };

  /**
   * A return URL a page asks for: absolute http(s) on an origin the form allows (or svc's own,
   * `server.publicUrl`: never the Host header, which whoever asks chooses; issue #32 item 7).
   */
  function allowedReturnUrl(form: Form, asked: string): string {
    let url: URL;
    try {
      url = new URL(asked);
    } catch {
      throw new SvcError('PAYLOAD_INVALID', '`returnUrl` must be an absolute URL.');
    }
    const own = config.server.publicUrl !== null && new URL(config.server.publicUrl).origin === url.origin;
    const allowed = (url.protocol === 'https:' || url.protocol === 'http:') && (own || ctx.cors.forForm(form.handle).check(url.origin) === 'credentialed');
    if (!allowed || asked.length > 2048) throw new SvcError('PAYLOAD_INVALID', '`returnUrl` must be on an origin this form allows.');
    return url.toString();
  }

  /** A browser post carries its page's Origin (or at least a Referer); it must be one the form allows. */
  function assertOrigin(request: FastifyRequest, form: Form): Form {
    const origin = request.headers.origin ?? refererOrigin(request);
    if (!origin || origin === 'null' || ctx.cors.isSameOrigin(request, origin)) return form;
    if (!ctx.cors.forForm(form.handle).check(origin)) throw new SvcError('ORIGIN_NOT_ALLOWED');
    return form;
  }

  async function answer(request: FastifyRequest, reply: FastifyReply, json: boolean, form: Form, body: SubmitBody, carried: string | null, posted: Readonly<Record<string, unknown>>, language: string) {
    const honeypot = form.settings.spam.honeypot ? { name: submit.spamFields.honeypotName(form), value: '' } : null;
    const stored = classic.carrier.storage === 'database';
    if (json) {
      // Refusals answer 200 with success false, as the Freeform ajax client expects; limits keep 429.
      const status = body.status === 'limit_reached' ? 429 : 200;
      const hash = classic.seals.formHash(form, body.page.currentIndex, stored ? carried : null);
      return reply.code(status).send(classicJson(body, { payload: stored ? null : carried, hash, honeypot }));
    }
    if (body.complete && body.redirect?.url) return reply.redirect(returnUrlFor(body.redirect.url, body.submission, posted), 303);
    const failed = !body.success;
    const flash: ClassicFlash = {
      pageIndex: body.page.currentIndex,
      // A refused page shows what was posted; a page moved to shows what is known of it.
      values: failed ? posted : body.state.values,
      errors: body.errors.fields,
      formErrors: body.errors.form.length > 0 ? body.errors.form : failed && body.message ? [body.message] : [],
      carried,
      finished: body.complete,
      message: body.message,
      submissionId: body.submission?.id ?? null,
      draft: body.draft,
    };
    const lines = [body.message ?? '', ...body.errors.form, ...Object.values(body.errors.fields).flat()].filter((line) => line !== '');
    return back(request, reply, form, flash, failed ? 422 : 200, lines, language);
  }

  async function back(request: FastifyRequest, reply: FastifyReply, form: Form, flash: ClassicFlash, status: number, lines: readonly string[], language: string | null) {
    const referer = safeReferer(request, ctx.cors.forForm(form.handle), config.server.publicUrl, (origin) => ctx.cors.isSameOrigin(request, origin));
    if (!referer) {
      const words = classicPageWords(language);
      return plainPage(reply, status, status < 400 ? words.done : words.refused, lines.length > 0 ? lines : [words.goBack], words.language);
    }
    const key = await classic.flashes.put(form.id, flash);
    return reply.redirect(backTo(referer, key, `${form.handle}-form`), 303);
  }

  await app.register(async (scope) => {
    // The body limit is the server's own (`server.bodyLimitKB`), as for JSON.
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      // Entries in order, repeated names kept: checkbox groups and multi-selects post one per value.
      done(null, new FormEntries([...new URLSearchParams(body as string)]));
    });
    const options = { config: { cors: 'all' as const }, onRequest: withLimit(ctx.guard, ctx.limits.submit) };
    scope.post(CLASSIC_SUBMIT_PATH, { ...options, schema: classicPostSchema }, answerPost);
    // Sites post to whatever path their template says, `/` included (contract §10): a POST no other
    // route takes comes here, and `action=svc/submit` in the body decides. Only a form post can
    // say so; anything else is not-found at once, before a guard, a limit or a parser sees it.
    scope.post('/*', { ...options, onRequest: [onlyFormPosts, ...options.onRequest], schema: classicAnyPathSchema }, answerPost);
  });
}

/** The catch-all's first hook: a body that is not form-encoded or multipart goes to not-found. */
function onlyFormPosts(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data') {
    done();
    return;
  }
  // Answered here; the route's other hooks, its parser and its handler never run.
  reply.callNotFound();
}

/** A form-encoded body as this scope's parser made it (a JSON array is not one). */
class FormEntries {
  constructor(readonly entries: Entries) {}
}

function missingAction(): never {
  throw new SvcError('PAYLOAD_INVALID', `A classic post carries action=${CLASSIC_ACTION}.`);
}

function refererOrigin(request: FastifyRequest): string | undefined {
  const referer = request.headers.referer;
  if (typeof referer !== 'string') return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}
