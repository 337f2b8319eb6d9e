/**
 * `svc_payload` and `formHash` of a classic post (contract §10, issue #14). The payload carries a
 * rendered form's state from post to post: which form, when it was rendered (for its lifetime and
 * the honeypot's minimum fill time), and the multi-page state token once there is one. It is
 * AES-256-GCM-sealed under a key derived from the server secret, its key id and the form, so it
 * cannot be read, altered or moved to another form, and any instance can open it. `formHash` is a
 * signed name of the form and page, the value Freeform sites already post.
 *
 * Failures are told apart (missing, tampered, expired), since "Form has expired" with no hint of
 * why is what classic sites complain of most.
 */
import { SvcError, type Form } from '@svc/core';
import { deriveKey, hmac, openJson, safeEqual, sealJson } from '../security/token-crypto.js';

export interface ClassicPayload {
  readonly formUid: string;
  /** Random per rendered form: the CSRF input is bound to it, since no cookie reaches svc first. */
  readonly nonce: string;
  /** When the form was first rendered (ms); the payload expires `ttl` after it. */
  readonly renderedAt: number;
  /** The signed fill timestamp of the honeypot (minimum fill time), as the manifest gives it. */
  readonly fillTimestamp: string | null;
  /** The multi-page state token of the previous step, or null before the first. */
  readonly state: string | null;
}

export interface ClassicSealOptions {
  readonly kid: string;
  readonly acceptedKids: readonly string[];
  readonly ttlMs: number;
}

export interface ClassicSeals {
  sealPayload(payload: ClassicPayload): string;
  /** Throws PAYLOAD_MISSING, PAYLOAD_TAMPERED or PAYLOAD_EXPIRED. */
  openPayload(form: Form, posted: unknown, now: number): ClassicPayload;
  /**
   * The CSRF input of a rendered form: bound to its payload's nonce, since the page is drawn by the
   * site's server and no svc cookie reaches the browser before it posts.
   */
  csrfToken(payload: ClassicPayload): string;
  /** Throws CSRF_INVALID unless `posted` is the CSRF input issued with this payload. */
  checkCsrf(payload: ClassicPayload, posted: unknown): void;
  /**
   * `<form id>-<page>-<mac>`, or `<form id>-<page>-<session id>-<mac>` with database storage:
   * names the form, the page and the stored state a post was rendered for.
   */
  formHash(form: Form, pageIndex: number, sessionId?: string | null): string;
  /**
   * A return URL the site asked for when it fetched the properties JSON, signed for this form: a
   * posted `formReturnUrl` is honoured only with this signature (no open redirect).
   */
  signReturnUrl(form: Form, url: string): string;
  /** The URL a posted `formReturnUrl` names; null when none was posted; PAYLOAD_TAMPERED when forged. */
  readReturnUrl(form: Form, posted: unknown): string | null;
  /** What a posted hash names, when its signature holds; else PAYLOAD_MISSING / PAYLOAD_TAMPERED. */
  readHash(posted: unknown): { formId: number; pageIndex: number; sessionId: string | null };
}

const HASH = /^(\d{1,9})-(\d{1,3})-(?:([A-Za-z0-9]{22})-)?([A-Za-z0-9_-]{22})$/;
const PAYLOAD = /^([A-Za-z0-9_-]{1,32})\.([A-Za-z0-9_-]{20,60000})$/;

function isPayload(value: unknown): value is ClassicPayload {
  const v = value as ClassicPayload;
  return (
    typeof v === 'object' && v !== null && typeof v.formUid === 'string' && typeof v.nonce === 'string' && Number.isFinite(v.renderedAt) &&
    (v.fillTimestamp === null || typeof v.fillTimestamp === 'string') && (v.state === null || typeof v.state === 'string')
  );
}

export function createClassicSeals(secret: string, options: ClassicSealOptions): ClassicSeals {
  const accepted = new Set([options.kid, ...options.acceptedKids]);
  const payloadKeys = new Map<string, Buffer>();
  const payloadKey = (kid: string, formUid: string) => {
    const id = `${kid}/${formUid}`;
    let key = payloadKeys.get(id);
    if (!key) payloadKeys.set(id, (key = deriveKey(secret, `classic-payload:${kid}`, formUid)));
    return key;
  };
  const hashKey = deriveKey(secret, 'classic-form-hash');
  const mac = (formId: number, pageIndex: number, sessionId: string | null) => hmac(hashKey, `${formId}:${pageIndex}:${sessionId ?? ''}`).slice(0, 22);
  const csrfKey = deriveKey(secret, 'classic-csrf');
  const returnKey = deriveKey(secret, 'classic-return-url');
  const returnMac = (form: Form, url: string) => hmac(returnKey, `${form.uid}\n${url}`);
  const csrfOf = (payload: ClassicPayload) => hmac(csrfKey, `${payload.formUid}:${payload.nonce}`);
  return {
    sealPayload(payload) {
      return `${options.kid}.${sealJson(payloadKey(options.kid, payload.formUid), payload, payload.formUid)}`;
    },
    openPayload(form, posted, now) {
      if (posted === undefined || posted === null || posted === '') throw new SvcError('PAYLOAD_MISSING');
      const match = typeof posted === 'string' ? PAYLOAD.exec(posted) : null;
      const kid = match?.[1];
      if (!match || !kid || !accepted.has(kid)) throw new SvcError('PAYLOAD_TAMPERED');
      const opened = openJson(payloadKey(kid, form.uid), match[2] as string, form.uid);
      if (!isPayload(opened) || opened.formUid !== form.uid) throw new SvcError('PAYLOAD_TAMPERED');
      if (now - opened.renderedAt > options.ttlMs || opened.renderedAt > now + 60_000) throw new SvcError('PAYLOAD_EXPIRED');
      return opened;
    },
    csrfToken: csrfOf,
    signReturnUrl(form, url) {
      return `${Buffer.from(url, 'utf8').toString('base64url')}.${returnMac(form, url)}`;
    },
    readReturnUrl(form, posted) {
      if (posted === undefined || posted === '') return null;
      const [encoded, mac, extra] = typeof posted === 'string' && posted.length <= 8192 ? posted.split('.') : [];
      const url = encoded ? Buffer.from(encoded, 'base64url').toString('utf8') : '';
      if (!encoded || !mac || extra !== undefined || !safeEqual(mac, returnMac(form, url))) throw new SvcError('PAYLOAD_TAMPERED', 'This form has expired; please reload it. (formReturnUrl is not one svc signed for this form.)');
      return url;
    },
    checkCsrf(payload, posted) {
      if (typeof posted !== 'string' || !safeEqual(posted, csrfOf(payload))) throw new SvcError('CSRF_INVALID');
    },
    formHash(form, pageIndex, sessionId = null) {
      return `${form.id}-${pageIndex}-${sessionId ? `${sessionId}-` : ''}${mac(form.id, pageIndex, sessionId)}`;
    },
    readHash(posted) {
      const match = typeof posted === 'string' ? HASH.exec(posted) : null;
      if (!match) throw new SvcError(posted === undefined || posted === '' ? 'PAYLOAD_MISSING' : 'PAYLOAD_TAMPERED', posted === undefined || posted === '' ? 'formHash was not posted: render it from the properties JSON `hash`.' : undefined);
      const formId = Number(match[1]);
      const pageIndex = Number(match[2]);
      const sessionId = match[3] ?? null;
      if (!safeEqual(match[4] as string, mac(formId, pageIndex, sessionId))) throw new SvcError('PAYLOAD_TAMPERED');
      return { formId, pageIndex, sessionId };
    },
  };
}
