/**
 * "Select every row on this page" for the bulk bar (issue #35 item 1), served as
 * /svc/console/console-bulk.js: the CSP allows scripts only as files. Without it each row is
 * ticked on its own and "all matching this filter" covers the rest, so nothing depends on it.
 */
export const CONSOLE_BULK_JS = `(() => {
  'use strict';
  const head = document.querySelector('th.pick');
  const boxes = Array.from(document.querySelectorAll('td.pick input[type=checkbox]'));
  if (!head || boxes.length === 0) return;
  const all = document.createElement('input');
  all.type = 'checkbox';
  all.id = 'pick-all';
  all.setAttribute('aria-label', 'Select every row on this page');
  head.replaceChildren(all);
  const sync = () => {
    const ticked = boxes.filter((box) => box.checked).length;
    all.checked = ticked === boxes.length;
    all.indeterminate = ticked > 0 && ticked < boxes.length;
  };
  all.addEventListener('change', () => {
    for (const box of boxes) box.checked = all.checked;
    sync();
  });
  for (const box of boxes) box.addEventListener('change', sync);
  sync();
})();
`;
