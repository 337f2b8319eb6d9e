/**
 * Progress for long exports (issue #15), served as /svc/console/console-export.js: the CSP allows
 * scripts only as files from the console, nothing inline. Without it the export links are plain
 * downloads (the browser's own indicator); with it a click or Enter on an export link fetches the
 * same URL (same cookie, same audit entry), counts the rows as the stream arrives against the
 * count the page showed, draws a <progress>, and saves the result under the server's file name.
 * Rows are counted on the bytes: `"` and newline never occur inside a UTF-8 multi-byte sequence,
 * and a CSV newline counts only outside quotes (values may hold line breaks).
 * The whole export is held in memory before it is saved; "Save link as…" still streams to disk.
 */
export const CONSOLE_EXPORT_JS = `(() => {
  'use strict';
  const box = document.getElementById('export-progress');
  if (!box || typeof ReadableStream === 'undefined' || typeof fetch !== 'function') return;
  const bar = document.getElementById('export-bar');
  const figures = document.getElementById('export-figures');
  const status = document.getElementById('export-status');
  const cancel = document.getElementById('export-cancel');
  const number = new Intl.NumberFormat('en');
  let running = null;

  const megabytes = (bytes) => (bytes / 1048576).toFixed(1) + ' MB';
  const fileName = (response, fallback) => {
    const header = response.headers.get('content-disposition') || '';
    const encoded = /filename\\*=UTF-8''([^;]+)/i.exec(header);
    if (encoded) { try { return decodeURIComponent(encoded[1]); } catch (_) { /* the plain name below */ } }
    const plain = /filename="([^"]+)"/i.exec(header);
    return plain ? plain[1] : fallback;
  };

  function counter(format) {
    let quoted = false;
    let lines = 0;
    return {
      add(bytes) {
        for (let i = 0; i < bytes.length; i++) {
          const b = bytes[i];
          if (b === 10) { if (!quoted) lines++; } else if (b === 34 && format === 'csv') quoted = !quoted;
        }
      },
      // The CSV's first line is its header.
      rows: () => (format === 'csv' ? Math.max(0, lines - 1) : lines),
    };
  }

  function finish(message) {
    running = null;
    cancel.hidden = true;
    status.textContent = message;
  }

  async function run(link) {
    const url = new URL(link.href, location.href);
    const format = url.searchParams.get('format') === 'jsonl' ? 'jsonl' : 'csv';
    const total = Math.max(0, Number(link.dataset.count) || 0);
    const controller = new AbortController();
    running = controller;
    const rows = counter(format);
    let bytes = 0;
    bar.max = Math.max(1, total);
    bar.value = 0;
    figures.textContent = '0 of ' + number.format(total) + ' rows';
    box.hidden = false;
    cancel.hidden = false;
    status.textContent = 'Export started: ' + number.format(total) + ' rows.';
    try {
      const response = await fetch(url, { credentials: 'same-origin', redirect: 'manual', signal: controller.signal });
      if (response.status !== 200 || !response.body) {
        finish(response.type === 'opaqueredirect' ? 'Export failed: your session has ended; sign in again.' : 'Export failed: the server answered ' + response.status + '.');
        return;
      }
      const reader = response.body.getReader();
      const parts = [];
      let drawn = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parts.push(value);
        bytes += value.length;
        rows.add(value);
        const now = performance.now();
        if (now - drawn > 100) {
          drawn = now;
          bar.value = Math.min(rows.rows(), bar.max);
          figures.textContent = number.format(rows.rows()) + ' of ' + number.format(total) + ' rows, ' + megabytes(bytes);
        }
      }
      bar.max = Math.max(1, rows.rows());
      bar.value = bar.max;
      const name = fileName(response, 'export.' + format);
      figures.textContent = number.format(rows.rows()) + ' rows, ' + megabytes(bytes);
      const blob = new Blob(parts, { type: response.headers.get('content-type') || 'application/octet-stream' });
      const href = URL.createObjectURL(blob);
      const save = document.createElement('a');
      save.href = href;
      save.download = name;
      save.hidden = true;
      document.body.append(save);
      save.click();
      save.remove();
      setTimeout(() => URL.revokeObjectURL(href), 60000);
      finish('Export finished: ' + number.format(rows.rows()) + ' rows saved as ' + name + '.');
    } catch (error) {
      finish(controller.signal.aborted ? 'Export cancelled.' : 'Export failed: the connection was lost.');
    }
  }

  document.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest('a[data-export]') : null;
    // A modified click (new tab, save as) is the browser's to handle.
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    if (running) {
      status.textContent = 'An export is already running; cancel it first.';
      return;
    }
    void run(link);
  });
  cancel.addEventListener('click', () => running && running.abort());
})();
`;
