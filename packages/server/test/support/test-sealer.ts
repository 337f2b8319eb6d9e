/**
 * A ValueSealer for tests that read or write submissions without an app (issue #37 item 1): the
 * keyring an installation with no configured keys has, from a fixed secret.
 */
import { createKeyring, secretKek } from '../../src/privacy/privacy-keyring.js';
import { createValueSealer, type ValueSealer } from '../../src/privacy/privacy-sealer.js';

export function testSealer(secret = 'a test secret of at least thirty-two characters'): ValueSealer {
  return createValueSealer(createKeyring([secretKek(secret)], 'secret'));
}
