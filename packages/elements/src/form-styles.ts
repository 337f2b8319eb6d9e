/**
 * The light default theme. Everything a host may want to change is a custom property on the
 * host or a `::part`; colours are chosen for WCAG AA contrast on the white background. Sides are
 * logical (inline-start, block-end), so a right-to-left form (dir="rtl", issue #34) mirrors.
 * The tinted boxes and inputs read --svc-field-background, --svc-tint-background,
 * --svc-success-color/-border and --svc-color-scheme when a host sets them (a dark hosted page,
 * issue #36), with the light values below as their fallbacks.
 */
export const FORM_STYLES = `
:host {
  --svc-font: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  --svc-color: #1f2328;
  --svc-muted: #4b5563;
  --svc-background: #ffffff;
  --svc-accent: #1d4ed8;
  --svc-accent-text: #ffffff;
  --svc-error: #b42318;
  --svc-radius: 6px;
  --svc-gap: 1rem;
  --svc-border: #6b7280;
  display: block;
  color-scheme: var(--svc-color-scheme, light);
  font-family: var(--svc-font);
  color: var(--svc-color);
  background: var(--svc-background);
  line-height: 1.4;
}
:host([hidden]), [hidden] { display: none !important; }
* { box-sizing: border-box; }
form { display: flex; flex-direction: column; gap: var(--svc-gap); }
.row { display: flex; flex-wrap: wrap; gap: var(--svc-gap); }
.row > .field { flex: 1 1 14rem; min-width: 0; }
.row > .field[data-type="hidden"] { display: none; }
.field { display: flex; flex-direction: column; gap: 0.35rem; }
label, legend { font-weight: 600; }
fieldset { border: 0; margin: 0; padding: 0; min-width: 0; display: flex; flex-direction: column; gap: 0.35rem; }
legend { padding: 0; margin-block-end: 0.35rem; }
.required { color: var(--svc-error); }
.instructions, .hint { margin: 0; color: var(--svc-muted); font-size: 0.9em; }
.errors { margin: 0; padding: 0; list-style: none; color: var(--svc-error); font-size: 0.9em; }
.errors:empty { display: none; }
input:not([type="checkbox"]):not([type="radio"]):not([type="file"]), select, textarea {
  font: inherit; color: inherit; background: var(--svc-field-background, #fff); width: 100%;
  padding: 0.45rem 0.6rem; border: 1px solid var(--svc-border); border-radius: var(--svc-radius);
}
input[type="checkbox"], input[type="radio"] { width: 1.1rem; height: 1.1rem; margin: 0; accent-color: var(--svc-accent); }
.invalid input, .invalid select, .invalid textarea, .invalid canvas { border-color: var(--svc-error) !important; }
.options { display: flex; flex-direction: column; gap: 0.35rem; }
.options.one-line { flex-direction: row; flex-wrap: wrap; gap: 0.5rem 1.25rem; }
.option, .check { display: flex; align-items: center; gap: 0.5rem; }
.option label { font-weight: 400; }
.scale-legends { display: flex; justify-content: space-between; margin: 0.25rem 0 0; color: var(--svc-muted); font-size: 0.9em; gap: 1rem; }
.dropzone { border: 2px dashed var(--svc-border); border-radius: var(--svc-radius); padding: 0.75rem; display: flex; flex-direction: column; gap: 0.5rem; }
.dropzone.over { border-color: var(--svc-accent); background: var(--svc-tint-background, #eff4ff); }
.files { margin: 0; padding: 0; list-style: none; display: flex; flex-direction: column; gap: 0.25rem; }
.files li { display: flex; align-items: center; justify-content: space-between; gap: 0.5rem; }
.signature { display: flex; flex-direction: column; align-items: flex-start; gap: 0.5rem; }
.signature canvas { border: 1px solid var(--svc-signature-border, var(--svc-border)); background: var(--svc-signature-background, #fff); touch-action: none; max-width: 100%; }
.table-wrap { display: flex; flex-direction: column; align-items: flex-start; gap: 0.5rem; overflow-x: auto; }
table { border-collapse: collapse; }
th { text-align: start; font-weight: 600; padding-block: 0.25rem; padding-inline: 0 0.5rem; }
td { padding-block: 0.25rem; padding-inline: 0 0.5rem; }
.unsupported { color: var(--svc-muted); }
.payment { display: flex; flex-direction: column; gap: 0.5rem; }
.payment-status { margin: 0; color: var(--svc-muted); }
.payment-status:empty { display: none; }
button {
  font: inherit; cursor: pointer; border-radius: var(--svc-radius);
  padding: 0.5rem 1rem; border: 1px solid var(--svc-accent);
  background: var(--svc-accent); color: var(--svc-accent-text);
}
button.secondary { background: var(--svc-field-background, #fff); color: var(--svc-accent); padding: 0.3rem 0.75rem; }
button:disabled { opacity: 0.6; cursor: not-allowed; }
:focus-visible { outline: 3px solid var(--svc-accent); outline-offset: 2px; }
input:focus-visible, select:focus-visible, textarea:focus-visible, canvas:focus-visible { outline: 3px solid var(--svc-accent); outline-offset: 1px; }
.buttons { display: flex; flex-wrap: wrap; align-items: center; gap: 0.75rem; }
.progress, .page-label { margin: 0; color: var(--svc-muted); }
.page-label { font-weight: 600; color: var(--svc-color); font-size: 1.1em; }
.form-errors { color: var(--svc-error); border-inline-start: 4px solid var(--svc-error); padding: 0.5rem 0.75rem; background: var(--svc-tint-background, #fef3f2); }
.form-errors:empty { display: none; }
.form-errors p, .form-errors ul { margin: 0; }
.success, .draft { padding: 0.75rem 1rem; border-radius: var(--svc-radius); border: 1px solid var(--svc-success-border, #067647); background: var(--svc-tint-background, #ecfdf3); color: var(--svc-success-color, #054f31); }
.draft { margin-block-start: var(--svc-gap); border-color: var(--svc-accent); background: var(--svc-tint-background, #eff4ff); color: var(--svc-color); }
.draft a { color: var(--svc-accent); word-break: break-all; }
.spinner {
  width: 1.1rem; height: 1.1rem; border-radius: 50%;
  border: 3px solid #c7d2fe; border-top-color: var(--svc-accent);
  animation: svc-spin 0.8s linear infinite;
}
@keyframes svc-spin { to { transform: rotate(360deg); } }
@media (prefers-reduced-motion: reduce) { .spinner { animation-duration: 3s; } }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;
