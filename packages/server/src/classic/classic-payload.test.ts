import { describe, expect, it } from 'vitest';
import type { Form } from '@svc/core';
import { createClassicSeals, type ClassicPayload } from './classic-payload.js';

const SECRET = 'classic-payload-test-secret-0123456789';
const FORM = { id: 3, uid: 'form-uid-3' } as unknown as Form;
const OTHER = { id: 4, uid: 'form-uid-4' } as unknown as Form;
const NOW = 1_800_000_000_000;
const PAYLOAD: ClassicPayload = { formUid: FORM.uid, nonce: 'n0nce-value-0123456789', renderedAt: NOW, fillTimestamp: null, state: null };
const code = (run: () => unknown) => {
  try {
    run();
    return null;
  } catch (error) {
    return (error as { code?: string }).code;
  }
};

describe('classic payloads and form hashes', () => {
  it('rotates by key id: an older kid opens while it is accepted, and not after', () => {
    const old = createClassicSeals(SECRET, { kid: 'k1', acceptedKids: [], ttlMs: 3_600_000 });
    const sealed = old.sealPayload(PAYLOAD);
    expect(sealed.startsWith('k1.')).toBe(true);
    const rotating = createClassicSeals(SECRET, { kid: 'k2', acceptedKids: ['k1'], ttlMs: 3_600_000 });
    expect(rotating.openPayload(FORM, sealed, NOW)).toEqual(PAYLOAD);
    expect(rotating.sealPayload(PAYLOAD).startsWith('k2.')).toBe(true);
    const rotated = createClassicSeals(SECRET, { kid: 'k2', acceptedKids: [], ttlMs: 3_600_000 });
    expect(code(() => rotated.openPayload(FORM, sealed, NOW))).toBe('PAYLOAD_TAMPERED');
  });

  it('tells missing, tampered, foreign and expired apart', () => {
    const seals = createClassicSeals(SECRET, { kid: 'k1', acceptedKids: [], ttlMs: 3_600_000 });
    const sealed = seals.sealPayload(PAYLOAD);
    expect(code(() => seals.openPayload(FORM, undefined, NOW))).toBe('PAYLOAD_MISSING');
    expect(code(() => seals.openPayload(FORM, `${sealed.slice(0, -3)}abc`, NOW))).toBe('PAYLOAD_TAMPERED');
    expect(code(() => seals.openPayload(OTHER, sealed, NOW))).toBe('PAYLOAD_TAMPERED');
    expect(code(() => seals.openPayload(FORM, sealed, NOW + 3_600_001))).toBe('PAYLOAD_EXPIRED');
    expect(seals.openPayload(FORM, sealed, NOW + 3_599_000)).toEqual(PAYLOAD);
  });

  it('signs the form, page and stored session a hash names', () => {
    const seals = createClassicSeals(SECRET, { kid: 'k1', acceptedKids: [], ttlMs: 1 });
    expect(seals.readHash(seals.formHash(FORM, 2))).toEqual({ formId: 3, pageIndex: 2, sessionId: null });
    const sid = 'A'.repeat(22);
    expect(seals.readHash(seals.formHash(FORM, 0, sid))).toEqual({ formId: 3, pageIndex: 0, sessionId: sid });
    const [id, , mac] = seals.formHash(FORM, 0).split('-');
    expect(code(() => seals.readHash(`${id}-1-${mac}`))).toBe('PAYLOAD_TAMPERED');
    expect(code(() => seals.readHash(''))).toBe('PAYLOAD_MISSING');
  });

  it('binds the CSRF input to the payload', () => {
    const seals = createClassicSeals(SECRET, { kid: 'k1', acceptedKids: [], ttlMs: 1 });
    const token = seals.csrfToken(PAYLOAD);
    expect(code(() => seals.checkCsrf(PAYLOAD, token))).toBeNull();
    expect(code(() => seals.checkCsrf({ ...PAYLOAD, nonce: 'another-nonce-012345678' }, token))).toBe('CSRF_INVALID');
    expect(code(() => seals.checkCsrf(PAYLOAD, undefined))).toBe('CSRF_INVALID');
  });
});
