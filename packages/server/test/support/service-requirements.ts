/**
 * Suites that need an outside service (PostgreSQL, Redis, Chromium) ask here. Absent service: the
 * suite is skipped with a printed reason, unless SVC_TEST_REQUIRE_ALL=1 (set by .ci/run), which
 * makes the absence a failure so CI can never go green by skipping.
 */
import { describe } from 'vitest';

export function requireAll(): boolean {
  return process.env.SVC_TEST_REQUIRE_ALL === '1';
}

/** `describe` when `value` is set, else a skip (or a failure under SVC_TEST_REQUIRE_ALL=1). */
export function describeWithService(
  name: string,
  value: string | undefined,
  reason: string,
  body: (value: string) => void,
): void {
  if (value) {
    describe(name, () => body(value));
    return;
  }
  if (requireAll()) {
    describe(name, () => {
      throw new Error(`${reason}, and SVC_TEST_REQUIRE_ALL=1 forbids skipping "${name}"`);
    });
    return;
  }
  console.warn(`[skip] ${name}: ${reason}`);
  describe.skip(name, () => body(''));
}

export function postgresUrl(): string | undefined {
  return process.env.SVC_TEST_POSTGRES_URL || undefined;
}
