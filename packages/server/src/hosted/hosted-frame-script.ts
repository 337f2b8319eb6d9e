/**
 * The script of a hosted page opened in an iframe (`?embed=1`, issue #36 item 3): it tells the
 * embedding page its height whenever it changes, so the frame's snippet can size the iframe to
 * the form (pages, errors, the success message) instead of scrolling inside it. Served as a file:
 * the page's CSP allows no inline script. Only a number leaves the frame.
 */
export const HOSTED_FRAME_JS = `if (window.parent !== window) {
  const post = () => window.parent.postMessage({ type: 'svc:height', height: Math.ceil(document.documentElement.getBoundingClientRect().height) }, '*');
  new ResizeObserver(post).observe(document.documentElement);
  post();
}
`;

/**
 * What an embedding page adds beside the iframe: it sets the frame's height from the message,
 * taking it only from svc's origin and only for that frame.
 *
 * @example
 * embedSnippets('https://forms.example.com', 'contact', 'Contact', 'en').iframe;
 */
export function embedSnippets(origin: string, prefix: string, handle: string, title: string, variant: string): { readonly script: string; readonly iframe: string } {
  const page = `${origin}${prefix}/${handle}`;
  return {
    script: `<script type="module" src="${origin}${prefix}/_/svc-form.${variant}.js"></script>
<svc-form base-url="${origin}" handle="${handle}"></svc-form>`,
    iframe: `<iframe src="${page}?embed=1" title="${title.replace(/"/g, '&quot;')}" data-svc-form="${handle}" style="width: 100%; border: 0;"></iframe>
<script>
  window.addEventListener('message', (event) => {
    const frame = document.querySelector('iframe[data-svc-form="${handle}"]');
    if (event.origin !== ${JSON.stringify(origin)} || event.source !== frame?.contentWindow || event.data?.type !== 'svc:height') return;
    frame.style.height = event.data.height + 'px';
  });
</script>`,
  };
}
