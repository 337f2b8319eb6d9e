/**
 * Theme contrast (issue #36 item 2), checked and not hoped: the WCAG formula against known
 * ratios; the config refuses a colour set that fails; and for many random colour sets, every one
 * the config accepts yields a stylesheet whose real pairs (read back from the CSS the page is
 * served, not from the table the check uses) pass AA: 4.5:1 for text, 3:1 for controls.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config-loader.js';
import { formatDefinitionProblems, loadFormDefinitions } from '../forms/definition-loader.js';
import { contrastRatio } from './hosted-contrast.js';
import { renderThemeCss } from './hosted-styles.js';
import { contrastProblems, DEFAULT_COLOURS, resolveTheme, type HostedTheme } from './hosted-theme.js';

const SECRET = 'test-secret-0123456789-abcdefghijklmnopqrstuvwxyz';

function configWith(theme: HostedTheme) {
  return () => loadConfig({ file: null, demo: false, env: { SVC_SECRET: SECRET }, values: { dataDir: '/tmp/svc-theme-test', hosted: { theme } } });
}

/** Each block's custom properties, as the browser would read them for `svc-form`. */
function blocks(css: string): Record<string, string>[] {
  return [...css.matchAll(/:root, svc-form \{([^}]*)\}/g)].map((block) =>
    Object.fromEntries([...block[1]!.matchAll(/--svc-([a-z-]+): (#[0-9a-fA-F]{3,6});/g)].map((m) => [m[1]!, m[2]!])),
  );
}

/** What the page and the element draw on what (form-styles.ts, hosted-styles.ts), with AA's ratio. */
const DRAWN: readonly [fg: string, bg: string, min: number][] = [
  ['color', 'background', 4.5],
  ['muted', 'background', 4.5],
  ['error', 'background', 4.5],
  ['error', 'tint-background', 4.5],
  ['accent', 'background', 4.5],
  ['accent', 'field-background', 4.5],
  ['accent-text', 'accent', 4.5],
  ['color', 'field-background', 4.5],
  ['success-color', 'tint-background', 4.5],
  ['border', 'field-background', 3],
  ['accent', 'background', 3],
  ['success-border', 'background', 3],
];

function randomColour(random: () => number): string {
  return `#${Math.floor(random() * 0x1000000).toString(16).padStart(6, '0')}`;
}

/** A small seeded generator, so a failure is the same on every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('theme contrast', () => {
  it('computes WCAG ratios: black on white 21:1, #767676 on white just passes 4.5:1, #777777 just fails', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#fff', '#000')).toBeCloseTo(21, 5);
    expect(contrastRatio('#767676', '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio('#777777', '#ffffff')).toBeLessThan(4.5);
  });

  it('passes with the built-in light and dark colours', () => {
    expect(contrastProblems({ light: DEFAULT_COLOURS.light, dark: DEFAULT_COLOURS.dark })).toEqual([]);
  });

  it('refuses at boot a theme whose text is too pale, naming the pair and the ratio', () => {
    expect(configWith({ light: { text: '#999999' } })).toThrow(/hosted\.theme\.light: text #999999 on background #ffffff is 2\.85:1; text need 4\.5:1/);
    expect(configWith({ dark: { accentText: '#ffffff', accent: '#79b8ff' } })).toThrow(/hosted\.theme\.dark: accentText #ffffff on accent #79b8ff/);
    expect(configWith({ light: { text: 'red' } as never })).toThrow(/hosted\.theme\.light\.text/);
    expect(configWith({ light: { background: '#fffdf5', text: '#222222', accent: '#0b6e4f' }, scheme: 'auto' })).not.toThrow();
  });

  it("refuses a form file whose hostedTheme fails, as svc forms check reports it, and takes one that passes", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-theme-forms-'));
    try {
      const file = (theme: string) => `name: Pale\nsettings:\n  hostedPage: true\n  hostedTheme: ${theme}\nfields:\n  - { type: text, handle: name, label: Name }\n`;
      writeFileSync(join(dir, 'pale.yaml'), file("{ dark: { text: '#333333' } }"));
      writeFileSync(join(dir, 'fine.yaml'), file("{ scheme: dark, radius: 10, dark: { accent: '#ffb86b' } }"));
      const result = await loadFormDefinitions(dir);
      expect(result.definitions.map((d) => d.definition.handle)).toEqual(['fine']);
      expect(formatDefinitionProblems(result.problems)).toContain('settings.hostedTheme.dark: text #333333 on background #0d1117 is 1.');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('draws every pair at AA for any colour set the config accepts (2,000 random sets, light and dark)', () => {
    const random = seeded(36);
    let accepted = 0;
    for (let i = 0; i < 2000; i++) {
      const scheme = i % 2 === 0 ? 'light' : 'dark';
      // Half the keys written, half left to the defaults: partial sets are merged over them.
      const keys = ['background', 'text', 'muted', 'accent', 'accentText', 'error'] as const;
      const colours = Object.fromEntries(keys.filter(() => random() < 0.5).map((key) => [key, randomColour(random)]));
      const theme: HostedTheme = { scheme, [scheme]: colours };
      let config;
      try {
        config = configWith(theme)();
      } catch {
        continue;
      }
      accepted += 1;
      const css = renderThemeCss(resolveTheme(config.hosted.theme as HostedTheme, null));
      for (const tokens of blocks(css)) {
        for (const [fg, bg, min] of DRAWN) {
          expect(contrastRatio(tokens[fg]!, tokens[bg]!), `${JSON.stringify(theme)}: ${fg} on ${bg}`).toBeGreaterThanOrEqual(min);
        }
      }
    }
    // The sample must exercise the check both ways.
    expect(accepted).toBeGreaterThan(100);
    expect(accepted).toBeLessThan(2000);
  });
});
