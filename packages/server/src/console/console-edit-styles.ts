/**
 * The console's styles for editing a submission, its notes and its files (issue #35 items 2, 3,
 * 5), appended to CONSOLE_CSS. The edit form reuses the demo's classic field markup (.field,
 * .errors, .choice, .stars), so its classes are styled here for the console's look.
 */
export const CONSOLE_EDIT_CSS = `.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.edit .field{margin:0 0 1rem;border:0;padding:0}.edit fieldset.field legend{font-weight:600;padding:0}.edit textarea{width:100%;box-sizing:border-box;font:inherit;padding:.45rem}
.edit .errors{color:#b42318;margin:.25rem 0 0;padding-left:1.25rem}.edit .errors:empty{display:none}.edit .help{margin:.1rem 0 .25rem;color:#57606a}
.edit .check{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}.edit .check input[type=checkbox]{width:1.25rem;height:1.25rem}.edit .check label{margin:0}
.edit .stars{display:inline-flex;flex-direction:row-reverse;gap:.25rem}.edit .stars label{margin:0;font-size:1.5rem;cursor:pointer;color:#8c959f}
.edit .stars input:checked~label,.edit .stars input:checked+label{color:#9a6700}.edit .stars input:focus-visible+label{outline:3px solid #2f6feb}
.edit .fixed{color:#57606a}.summary{border:2px solid #b42318;border-radius:6px;padding:.5rem 1rem;background:#fff}
.actions{display:flex;gap:1rem;align-items:center;flex-wrap:wrap}
.notes{list-style:none;padding:0;margin:0 0 1rem}.notes li{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:.5rem .75rem;margin:.5rem 0}
.notes .meta{margin:0;color:#57606a;font-size:.9rem}.notes .value{margin:.25rem 0 0;overflow-wrap:anywhere}
.note-form textarea{width:100%;box-sizing:border-box;font:inherit;padding:.45rem}
.thumbs{list-style:none;padding:0;margin:0;display:flex;flex-wrap:wrap;gap:.5rem}.thumbs a{display:inline-block}
.thumbs img{width:7.5rem;height:7.5rem;object-fit:cover;border:1px solid #d0d7de;border-radius:4px;background:#fff;display:block}
.thumbs a:focus-visible img{outline:3px solid #2f6feb;outline-offset:2px}.files-list{margin:.25rem 0 0;padding-left:1.25rem}
.viewer{margin:0}.viewer img{display:block;max-width:100%;max-height:75vh;height:auto;margin:0 auto;background:#fff;border:1px solid #d0d7de}
.viewer figcaption{margin:.5rem 0;text-align:center}.pager{display:flex;justify-content:space-between;gap:1rem;flex-wrap:wrap;margin:1rem 0}
.pager a,.pager span{padding:.4rem .9rem;border:1px solid #d0d7de;border-radius:6px;background:#fff}.pager span{color:#57606a}`;
