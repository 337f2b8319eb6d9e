/**
 * The image viewer's keys (issue #35 item 5), served as a file (the console's CSP runs no inline
 * script): ← and → follow the page's previous and next links, Esc goes back to the submission.
 * Without it the same links are there to tab to.
 */
export const CONSOLE_FILES_JS = `document.addEventListener('keydown', function (event) {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  var target = event.target;
  if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
  var link = document.querySelector('a[data-key="' + event.key + '"]');
  if (!link) return;
  event.preventDefault();
  window.location.assign(link.href);
});
`;
