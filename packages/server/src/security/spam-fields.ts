/**
 * Names and expected values of the honeypot and javascript-test inputs. They are derived from the
 * server secret and the form uid, so they are stable per form (cacheable manifests, several
 * instances agree) yet differ between installations, which defeats bots tuned to one default name.
 */
import type { Form } from '@svc/core';
import { deriveKey, hmac } from './token-crypto.js';

export interface SpamFieldNames {
  honeypotName(form: Form): string;
  javascriptTestName(form: Form): string;
  /** The value a client's script copies into the javascript-test input. */
  javascriptTestValue(form: Form): string;
}

export function createSpamFieldNames(secret: string): SpamFieldNames {
  const key = deriveKey(secret, 'spam-fields');
  const cache = new WeakMap<Form, { hp: string; jsName: string; jsValue: string }>();
  const entry = (form: Form) => {
    let value = cache.get(form);
    if (!value) {
      value = {
        hp: `svc_hp_${hmac(key, `hp:${form.uid}`).replace(/[^A-Za-z0-9]/g, '').slice(0, 8)}`,
        jsName: `svc_js_${hmac(key, `jsn:${form.uid}`).replace(/[^A-Za-z0-9]/g, '').slice(0, 8)}`,
        jsValue: hmac(key, `jsv:${form.uid}`).slice(0, 24),
      };
      cache.set(form, value);
    }
    return value;
  };
  return {
    honeypotName: (form) => entry(form).hp,
    javascriptTestName: (form) => entry(form).jsName,
    javascriptTestValue: (form) => entry(form).jsValue,
  };
}
