/**
 * A tiny element builder: the renderer makes native HTML with plain DOM calls, so there is no
 * template engine and no innerHTML of manifest text (labels and options are data, never markup).
 */

export type Attributes = Readonly<Record<string, string | number | boolean | null | undefined>>;
export type Child = Node | string | null | undefined | false;

/**
 * Creates an element with attributes (`true` = present, `false`/null/undefined = absent) and children.
 *
 * @example
 * const label = h('label', { for: 'svc-email' }, 'Email');
 */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: readonly (Child | readonly Child[])[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

/** Appends text or nodes, skipping empty slots so callers can write `cond && node`. */
export function append(parent: Node, children: readonly (Child | readonly Child[])[]): void {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

/** Sets or removes one attribute; `aria-*` state is toggled this way on every validation. */
export function setAttribute(element: Element, name: string, value: string | null): void {
  if (value === null) element.removeAttribute(name);
  else element.setAttribute(name, value);
}
