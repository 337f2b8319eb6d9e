/**
 * The one stylesheet of a hosted page (issue #36): the theme's tokens as the custom properties
 * `<svc-form>` reads (set on the element itself, which outranks its own `:host` defaults), the
 * page around it, and the no-JavaScript form. Served as a file (`…/theme.css`), never inline, so
 * the page's CSP needs no 'unsafe-inline'; system fonts only.
 */
import type { HostedColours, ResolvedTheme } from './hosted-theme.js';

function tokens(colours: HostedColours, scheme: 'light' | 'dark'): string {
  return [
    `color-scheme: ${scheme};`,
    `--svc-color-scheme: ${scheme};`,
    `--svc-background: ${colours.background};`,
    `--svc-color: ${colours.text};`,
    `--svc-muted: ${colours.muted};`,
    `--svc-border: ${colours.muted};`,
    `--svc-accent: ${colours.accent};`,
    `--svc-accent-text: ${colours.accentText};`,
    `--svc-error: ${colours.error};`,
    // The element's tinted boxes (errors, notices, inputs) take the page's background, so every
    // text in them keeps the contrast checked against it.
    `--svc-field-background: ${colours.background};`,
    `--svc-tint-background: ${colours.background};`,
    `--svc-success-color: ${colours.text};`,
    `--svc-success-border: ${colours.accent};`,
  ].join(' ');
}

const PAGE_RULES = `
body { margin: 0; background: var(--svc-background); color: var(--svc-color); font-family: var(--svc-font); line-height: 1.5; }
.hosted { margin: 0 auto; padding: 2rem 1rem 3rem; }
.hosted-logo { display: block; max-height: 3rem; max-width: 100%; width: auto; margin-block-end: 1rem; }
h1 { font-size: 1.75rem; line-height: 1.25; margin: 0 0 0.5rem; }
.hosted-description { color: var(--svc-muted); margin: 0 0 1.5rem; }
a { color: var(--svc-accent); }
svc-form { display: block; }
.done { border: 1px solid var(--svc-accent); border-radius: var(--svc-radius); padding: 0.75rem 1rem; }
.field { margin: 0 0 1rem; border: 0; padding: 0; }
.field label, .field legend { display: block; font-weight: 600; margin-block-end: 0.25rem; }
.field input:not([type=checkbox]):not([type=radio]), .field select, .field textarea { width: 100%; box-sizing: border-box; padding: 0.45rem 0.6rem; font: inherit; color: inherit; background: var(--svc-background); border: 1px solid var(--svc-border); border-radius: var(--svc-radius); }
.check label, label.choice { display: inline; font-weight: normal; }
label.choice { display: block; }
.help { color: var(--svc-muted); margin: 0 0 0.25rem; }
.errors { color: var(--svc-error); margin: 0.25rem 0 0; padding-inline-start: 1.1rem; }
.errors:empty { display: none; }
.form-errors { border: 1px solid var(--svc-error); color: var(--svc-error); padding: 0.5rem 0.75rem; border-radius: var(--svc-radius); }
.hp { position: absolute; left: -9999px; }
.visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
.stars { display: inline-flex; flex-direction: row-reverse; gap: 0.15rem; }
.stars label { display: inline; margin: 0; font-size: 1.8rem; line-height: 1; color: var(--svc-muted); cursor: pointer; }
.stars input:checked ~ label { color: var(--svc-accent); }
table.table { border-collapse: collapse; width: 100%; }
button { font: inherit; cursor: pointer; border-radius: var(--svc-radius); padding: 0.5rem 1rem; border: 1px solid var(--svc-accent); background: var(--svc-accent); color: var(--svc-accent-text); }
:focus-visible { outline: 3px solid var(--svc-accent); outline-offset: 2px; }
`;

/**
 * @example
 * reply.type('text/css').send(renderThemeCss(resolveTheme(config.hosted.theme, form.settings.hostedTheme)));
 */
export function renderThemeCss(theme: ResolvedTheme): string {
  const shared = `--svc-font: ${theme.font}; --svc-radius: ${theme.radius}px;`;
  const first = theme.scheme === 'dark' ? 'dark' : 'light';
  const lines = [
    `:root, svc-form { ${shared} ${tokens(theme[first], first)} }`,
    `.hosted { max-width: ${theme.pageWidth}rem; }`,
  ];
  if (theme.scheme === 'auto') lines.push(`@media (prefers-color-scheme: dark) { :root, svc-form { ${tokens(theme.dark, 'dark')} } }`);
  return `${lines.join('\n')}\n${PAGE_RULES}`;
}
