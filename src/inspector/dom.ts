/** Building and finding the page's elements. Data becomes text (`textContent`), never markup. */

/** The element of the page with this id, of this type; throws when the page has none. */
export function byId<T extends HTMLElement = HTMLElement>(id: string, type?: abstract new () => T): T {
  const node = document.getElementById(id);
  if (!node || (type && !(node instanceof type))) throw new Error(`The inspector page has no #${id}${type ? ` of type ${type.name}` : ''}.`);
  return node as T;
}

/** A new element with an optional class name and text. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string | number | null): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

/** Sets the text of the element with this id, when the page has it. */
export function setText(id: string, text: string | number): void {
  const node = document.getElementById(id);
  if (node) node.textContent = String(text);
}
