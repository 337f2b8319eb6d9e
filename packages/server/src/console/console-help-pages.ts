/** The console's help page (issue #35 item 7): the keyboard shortcuts, and where dates are shown. */
import { escapeHtml } from '../http/html-page.js';
import { consolePage, scrollRegion, type Viewer } from './console-pages.js';

/** Every shortcut console-shortcuts-script.ts answers, in the words the page shows. */
export const SHORTCUTS: readonly (readonly [keys: readonly string[], what: string])[] = [
  [['/'], 'Search the list of submissions (on a form’s list)'],
  [['j'], 'Next row of the table'],
  [['k'], 'Previous row of the table'],
  [['Enter'], 'Open the row’s submission (after j or k)'],
  [['Escape'], 'Leave the search box'],
  [['?'], 'This help'],
];

export function renderHelp(zone: string, viewer: Viewer): string {
  const rows = SHORTCUTS.map(([keys, what]) => `<tr><th scope="row">${keys.map((k) => `<kbd>${escapeHtml(k)}</kbd>`).join(' ')}</th><td>${escapeHtml(what)}</td></tr>`).join('');
  const body = `<h1>Help</h1>
<h2>Keyboard shortcuts</h2>
<p>They work anywhere in the console except while you type in a field, and never with Ctrl, Alt or ⌘ held.</p>
${scrollRegion('Keyboard shortcuts', `<table><thead><tr><th scope="col">Key</th><th scope="col">What it does</th></tr></thead><tbody>${rows}</tbody></table>`)}
<h2>Dates</h2>
<p>Dates and times are shown in the site’s time zone, <strong>${escapeHtml(zone)}</strong>, with the zone after each time. Reports count days, weeks (from Monday) and months of that zone.</p>
<h2>Saved filters</h2>
<p>On a form’s list, “Save this filter as” keeps the filters and columns shown under a name; only you see your saved filters.</p>`;
  return consolePage('Help · svc console', body, viewer);
}
