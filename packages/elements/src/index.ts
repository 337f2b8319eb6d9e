/**
 * @svc/elements: the `<svc-form>` custom element (issue #6).
 *
 * @example
 * import '@svc/elements'; // registers <svc-form>
 * document.body.insertAdjacentHTML('beforeend', '<svc-form base-url="https://forms.example.com" handle="contact"></svc-form>');
 */
import { SvcFormElement } from './svc-form-element.js';

export { SvcFormElement, type SvcErrorDetail } from './svc-form-element.js';

// A page may load the bundle twice (two widgets, two versions); the first definition wins.
if (!customElements.get('svc-form')) customElements.define('svc-form', SvcFormElement);
