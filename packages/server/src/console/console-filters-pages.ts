/**
 * The saved-filters bar of a form's list (issue #35 item 7): each saved filter as a link that
 * applies it, a button to delete it, and a form to save the filter shown under a name.
 */
import { escapeHtml } from '../http/html-page.js';
import { CONSOLE_BASE, type Viewer } from './console-pages.js';
import type { SavedFilter } from './console-filters-repository.js';

export function renderSavedFilters(handle: string, saved: readonly SavedFilter[], current: string, viewer: Viewer): string {
  const base = `${CONSOLE_BASE}/forms/${encodeURIComponent(handle)}`;
  const csrf = `<input type="hidden" name="csrf" value="${escapeHtml(viewer.csrf)}">`;
  const items = saved
    .map((f) => `<li><a href="${escapeHtml(f.query ? `${base}?${f.query}` : base)}"${f.query === current ? ' aria-current="true"' : ''}>${escapeHtml(f.name)}</a> <form method="post" action="${base}/filters/${f.id}/delete" class="inline">${csrf}<button type="submit" aria-label="${escapeHtml(`Delete saved filter ${f.name}`)}">×</button></form></li>`)
    .join('');
  const list = saved.length === 0 ? '<p class="muted">No saved filters yet.</p>' : `<ul class="saved-list">${items}</ul>`;
  return `<section class="saved-filters" aria-labelledby="saved-filters-title"><h2 id="saved-filters-title">Saved filters</h2>${list}
<form method="post" action="${base}/filters">${csrf}<input type="hidden" name="query" value="${escapeHtml(current)}"><div><label for="filter-name">Save this filter as</label><input id="filter-name" name="name" maxlength="60" required></div><button type="submit">Save filter</button></form></section>`;
}
