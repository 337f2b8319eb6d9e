/**
 * Debian's Chromium driven by playwright-core (DESIGN.md, tests). Never a downloaded browser: the
 * executable is the system one, and the flags keep it off this machine's closed network.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { describeWithService } from '../../../../server/test/support/service-requirements.js';

export const CHROMIUM_PATH = '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** `describe` when Chromium is installed; otherwise a printed skip, or a failure under SVC_TEST_REQUIRE_ALL=1. */
export function describeWithChromium(name: string, body: () => void): void {
  describeWithService(
    name,
    existsSync(CHROMIUM_PATH) ? CHROMIUM_PATH : undefined,
    `Chromium is not installed at ${CHROMIUM_PATH} (Debian package "chromium"; .ci/run installs it)`,
    () => body(),
  );
}

/**
 * Chromium as the machine runs it. playwright-core gives every launch a new empty user-data-dir of
 * its own (and removes it on close), so no profile state leaks between runs.
 */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS, timeout: 30_000 });
}
