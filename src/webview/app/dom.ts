/**
 * DOM builders. Text goes in only through textContent and attribute values only through
 * setAttribute, so group ids, member ids and causes (which may hold any characters) are never
 * parsed as markup.
 */

type Child = Node | string | null | undefined | false;

export interface ElementProps {
  className?: string;
  text?: string;
  attrs?: Record<string, string>;
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: ElementProps = {}, children: Child[] = []): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  apply(element, props, children);
  return element;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function s<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number> = {}, children: Child[] = []): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) {
    element.setAttribute(name, typeof value === 'number' ? formatNumber(value) : value);
  }
  append(element, children);
  return element;
}

/** A tooltip for an SVG element (its <title> child). */
export function svgTitle(text: string): SVGTitleElement {
  const title = document.createElementNS(SVG_NS, 'title');
  title.textContent = text;
  return title;
}

function apply(element: Element, { className, text, attrs }: ElementProps, children: Child[]): void {
  if (className) {
    element.setAttribute('class', className);
  }
  if (text !== undefined) {
    element.textContent = text;
  }
  for (const [name, value] of Object.entries(attrs ?? {})) {
    element.setAttribute(name, value);
  }
  append(element, children);
}

function append(element: Element, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) {
      continue;
    }
    element.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

/** Two decimals are plenty for pixels and keep the SVG small. */
function formatNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

/** Term and value pairs as a definition list; rows without a value are left out. */
export function definitionList(rows: Array<[string, string | null | undefined]>): HTMLElement {
  const list = h('dl', { className: 'facts' });
  for (const [term, value] of rows) {
    if (value === null || value === undefined || value === '') {
      continue;
    }
    list.append(h('dt', { text: term }), h('dd', { text: value }));
  }
  return list;
}
