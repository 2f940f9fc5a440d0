/**
 * Tiny DOM helpers. Everything is built with createElement and text nodes, never markup strings:
 * task names and error messages are user or server data and must never become markup.
 * No inline handlers or style attributes (the CSP has no 'unsafe-inline').
 */

type Child = Node | string | null | undefined | false;

export interface Props {
  class?: string;
  text?: string;
  attrs?: Record<string, string>;
}

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props.class) el.className = props.class;
  if (props.attrs) for (const [k, v] of Object.entries(props.attrs)) el.setAttribute(k, v);
  if (props.text !== undefined) el.textContent = props.text;
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child);
  }
  return el;
}

export function button(label: string, onClick: () => void, props: Props = {}): HTMLButtonElement {
  const b = h('button', { ...props, text: label, attrs: { type: 'button', ...props.attrs } });
  b.addEventListener('click', onClick);
  return b;
}

export function show(el: HTMLElement, visible: boolean): void {
  el.hidden = !visible;
}
