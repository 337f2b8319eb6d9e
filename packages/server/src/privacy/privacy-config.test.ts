import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyringFromConfig, privacyKeyProblems } from './privacy-config.js';
import { kekIdOf } from './privacy-keyring.js';

const secret = 's'.repeat(40);

describe('privacy keys from config', () => {
  it('derives the KEK from the secret when no keys are listed', () => {
    const ring = keyringFromConfig({ secret, privacy: { keys: [], activeKey: null } });
    expect(ring.activeId).toBe('secret');
    expect(kekIdOf(ring.newDataKey().wrapped)).toBe('secret');
  });

  it('wraps under the last listed key and still opens keys wrapped under the secret', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-kek-'));
    writeFileSync(join(dir, 'k1'), 'k'.repeat(44));
    const before = keyringFromConfig({ secret, privacy: { keys: [], activeKey: null } }).newDataKey();
    const ring = keyringFromConfig({ secret, privacy: { keys: [{ id: 'k1', file: join(dir, 'k1') }, { id: 'k2', env: 'SVC_TEST_KEK' }], activeKey: null } }, { SVC_TEST_KEK: 'e'.repeat(32) });
    expect(ring.activeId).toBe('k2');
    expect(ring.unwrap(before.wrapped)?.equals(before.key)).toBe(true);
  });

  it('names every unusable key entry', () => {
    const problems = privacyKeyProblems(
      { secret, privacy: { keys: [{ id: 'a', file: '/nonexistent/key' }, { id: 'a', env: 'NOPE' }, { id: 'b', env: 'SHORT' }, { id: 'c' }], activeKey: 'zz' } },
      { SHORT: 'too short' },
    );
    expect(problems).toEqual([
      'privacy.keys[0]: cannot read /nonexistent/key',
      'privacy.keys[1]: the id "a" is listed twice',
      'privacy.keys[1]: the environment variable NOPE is not set',
      'privacy.keys[2]: the key holds fewer than 32 characters',
      'privacy.keys[3]: give exactly one of file or env',
      'privacy.activeKey: "zz" is not among privacy.keys',
    ]);
  });
});
