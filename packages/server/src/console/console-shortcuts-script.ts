/**
 * Keyboard shortcuts (issue #35 item 7), served as /svc/console/console-shortcuts.js on every
 * signed-in page (the CSP allows scripts only as files). Listed on /svc/console/help:
 *   /  search (the list's search box)     j / k  next / previous row of the page's table
 *   ?  this help                          Escape  leave the search box
 * A key typed into a field is the field's: nothing here fires while focus is in an input,
 * textarea, select or editable element, or with Ctrl, Alt or Meta held (the browser's own keys).
 * j and k focus the row's first link, so Enter opens it and the browser scrolls it into view.
 */
export const CONSOLE_SHORTCUTS_JS = `(() => {
  'use strict';
  const typing = (el) => !!el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));
  const rows = () => Array.from(document.querySelectorAll('main table tbody tr')).filter((tr) => tr.querySelector('a[href]'));
  let current = -1;
  const move = (step) => {
    const list = rows();
    if (list.length === 0) return false;
    const at = list.findIndex((tr) => tr.contains(document.activeElement));
    const from = at >= 0 ? at : current;
    current = Math.min(list.length - 1, Math.max(0, from + step));
    if (from < 0 && step > 0) current = 0;
    list.forEach((tr, i) => tr.classList.toggle('current', i === current));
    list[current].querySelector('a[href]').focus();
    return true;
  };
  document.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (typing(target)) {
      if (event.key === 'Escape' && target.id === 'q') target.blur();
      return;
    }
    let handled = false;
    if (event.key === '/') {
      const search = document.getElementById('q');
      if (search) { search.focus(); search.select(); handled = true; }
    } else if (event.key === 'j') handled = move(1);
    else if (event.key === 'k') handled = move(-1);
    else if (event.key === '?') { window.location.href = '/svc/console/help'; handled = true; }
    if (handled) event.preventDefault();
  });
})();
`;
