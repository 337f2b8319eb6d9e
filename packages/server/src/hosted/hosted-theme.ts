/**
 * Themes of the hosted pages (issue #36 item 2): a small set of design tokens, site-wide
 * (`hosted.theme`) or per form (`settings.hostedTheme`), validated by the config schema and the
 * form schema, and checked for WCAG AA contrast before they are accepted (themeProblems), so a
 * page drawn with any accepted tokens passes. A colour set a form gives replaces the site's set
 * for that scheme as a whole (over the defaults), so every set a page can draw with was checked.
 */
import { Type, type Static } from '@sinclair/typebox';
import { contrastRatio, HEX_COLOUR, TEXT_CONTRAST, UI_CONTRAST } from './hosted-contrast.js';

const colour = (description: string) => Type.Optional(Type.String({ pattern: HEX_COLOUR, description }));

export const HostedColoursSchema = Type.Object(
  {
    background: colour('Page and form background, #rrggbb (defaults: #ffffff light, #0d1117 dark).'),
    text: colour('Text; at least 4.5:1 against background.'),
    muted: colour('Help text and input borders; at least 4.5:1 against background.'),
    accent: colour('Buttons, links and focus rings; at least 4.5:1 against background.'),
    accentText: colour('Text on buttons; at least 4.5:1 against accent.'),
    error: colour('Error messages; at least 4.5:1 against background.'),
  },
  { additionalProperties: false },
);

/** The tokens; every one optional, the defaults below fill the rest. */
export const HostedThemeSchema = Type.Object(
  {
    scheme: Type.Optional(Type.Union([Type.Literal('light'), Type.Literal('dark'), Type.Literal('auto')], {
      description: '`light` (the default), `dark`, or `auto` (the visitor\'s system preference picks one of the two colour sets).',
    })),
    light: Type.Optional(Type.Object(HostedColoursSchema.properties, { additionalProperties: false, description: 'Colours of the light scheme, over the built-in light set.' })),
    dark: Type.Optional(Type.Object(HostedColoursSchema.properties, { additionalProperties: false, description: 'Colours of the dark scheme, over the built-in dark set.' })),
    font: Type.Optional(Type.Union([Type.Literal('system'), Type.Literal('serif'), Type.Literal('monospace')], {
      description: 'A system font stack (no web fonts are loaded): `system` (the default), `serif` or `monospace`.',
    })),
    radius: Type.Optional(Type.Integer({ minimum: 0, maximum: 24, description: 'Corner radius of inputs and buttons, in px (default 6).' })),
    pageWidth: Type.Optional(Type.Integer({ minimum: 20, maximum: 80, description: 'Widest the page column grows, in rem (default 42).' })),
    logo: Type.Optional(
      Type.Object(
        {
          url: Type.String({ pattern: '^(https://|/)[^\\s"\'<>]{0,2000}$', description: 'An https URL or a path on svc.' }),
          alt: Type.String({ maxLength: 200, description: 'Text alternative of the logo (empty for a decorative one).' }),
        },
        { additionalProperties: false, description: 'A logo above the form title (none by default).' },
      ),
    ),
  },
  { additionalProperties: false },
);

export type HostedColours = Required<Static<typeof HostedColoursSchema>>;
export type HostedTheme = Static<typeof HostedThemeSchema>;

export interface ResolvedTheme {
  readonly scheme: 'light' | 'dark' | 'auto';
  readonly light: HostedColours;
  readonly dark: HostedColours;
  readonly font: string;
  readonly radius: number;
  readonly pageWidth: number;
  readonly logo: { readonly url: string; readonly alt: string } | null;
}

/** The element's own light colours (packages/elements form-styles.ts), and a dark set to match. */
export const DEFAULT_COLOURS: Readonly<Record<'light' | 'dark', HostedColours>> = {
  light: { background: '#ffffff', text: '#1f2328', muted: '#4b5563', accent: '#1d4ed8', accentText: '#ffffff', error: '#b42318' },
  dark: { background: '#0d1117', text: '#e6edf3', muted: '#9ea7b3', accent: '#79b8ff', accentText: '#0d1117', error: '#ff8b85' },
};

const FONT_STACKS: Readonly<Record<NonNullable<HostedTheme['font']>, string>> = {
  system: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  serif: 'ui-serif, Georgia, Cambria, "Times New Roman", serif',
  monospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
};

/** The pairs a colour set must keep apart: what is drawn on what, and the ratio WCAG AA asks. */
export const CONTRAST_PAIRS: readonly { readonly fg: keyof HostedColours; readonly bg: keyof HostedColours; readonly min: number; readonly what: string }[] = [
  { fg: 'text', bg: 'background', min: TEXT_CONTRAST, what: 'text' },
  { fg: 'muted', bg: 'background', min: TEXT_CONTRAST, what: 'help text' },
  { fg: 'error', bg: 'background', min: TEXT_CONTRAST, what: 'error messages' },
  { fg: 'accent', bg: 'background', min: TEXT_CONTRAST, what: 'links and outlined buttons' },
  { fg: 'accentText', bg: 'accent', min: TEXT_CONTRAST, what: 'button labels' },
  { fg: 'muted', bg: 'background', min: UI_CONTRAST, what: 'input borders' },
  { fg: 'accent', bg: 'background', min: UI_CONTRAST, what: 'focus rings and button edges' },
];

/** A colour set over the defaults of its scheme. */
export function completeColours(scheme: 'light' | 'dark', given: Partial<HostedColours> | undefined): HostedColours {
  return { ...DEFAULT_COLOURS[scheme], ...(given ?? {}) };
}

/**
 * Each contrast failure of a theme's colour sets: the scheme and what fails.
 *
 * @example
 * contrastProblems({ light: { text: '#999999' } });
 * // [{ scheme: 'light', message: 'text #999999 on background #ffffff is 2.85:1; text need 4.5:1' }]
 */
export function contrastProblems(theme: HostedTheme | null | undefined): { readonly scheme: 'light' | 'dark'; readonly message: string }[] {
  if (!theme || typeof theme !== 'object') return [];
  const problems: { scheme: 'light' | 'dark'; message: string }[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    if (!theme[scheme]) continue;
    const colours = completeColours(scheme, theme[scheme]);
    for (const pair of CONTRAST_PAIRS) {
      const ratio = contrastRatio(colours[pair.fg], colours[pair.bg]);
      // NaN (a colour the schema refused) is not reported twice.
      if (ratio < pair.min) {
        problems.push({ scheme, message: `${pair.fg} ${colours[pair.fg]} on ${pair.bg} ${colours[pair.bg]} is ${ratio.toFixed(2)}:1; ${pair.what} need ${pair.min}:1` });
      }
    }
  }
  return problems;
}

/** contrastProblems as config problems: `hosted.theme.light: …`. */
export function themeProblems(theme: HostedTheme | null | undefined, path: string): string[] {
  return contrastProblems(theme).map((problem) => `${path}.${problem.scheme}: ${problem.message}`);
}

/**
 * The theme a form's page is drawn with: the form's tokens over the site-wide ones over the defaults.
 *
 * @example
 * resolveTheme(config.hosted.theme, form.settings.hostedTheme);
 */
export function resolveTheme(site: HostedTheme, form: HostedTheme | null): ResolvedTheme {
  const pick = <K extends keyof HostedTheme>(key: K): HostedTheme[K] => form?.[key] ?? site[key];
  return {
    scheme: pick('scheme') ?? 'light',
    light: completeColours('light', pick('light')),
    dark: completeColours('dark', pick('dark')),
    font: FONT_STACKS[pick('font') ?? 'system'],
    radius: pick('radius') ?? 6,
    pageWidth: pick('pageWidth') ?? 42,
    logo: pick('logo') ?? null,
  };
}
