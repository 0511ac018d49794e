/**
 * Draws what the panel sends into the page's static markup (resetPreviewHtml.ts). Every value is set
 * with textContent: nothing from a message is ever parsed as HTML.
 */
import type { ChangedData, PreviewData, ResultRowData } from '../resetPreviewProtocol';

/** An element of the page's static markup; its absence is a bug in the HTML shell, not bad input. */
export function pageElement(selector: string): HTMLElement {
  const element = document.querySelector<HTMLElement>(selector);
  if (!element) {
    throw new Error(`reset preview page: ${selector} is missing from the page`);
  }
  return element;
}

function cell(tag: 'td' | 'li' | 'dt' | 'dd', text: string, className = ''): HTMLElement {
  const element = document.createElement(tag);
  element.textContent = text;
  if (className) {
    element.className = className;
  }
  return element;
}

function row(cells: HTMLElement[]): HTMLTableRowElement {
  const tr = document.createElement('tr');
  tr.append(...cells);
  return tr;
}

/** Offsets moving back read in one colour, forward in another. */
function differenceClass(difference: string): string {
  return difference.startsWith('-') ? 'num back' : difference.startsWith('+') ? 'num ahead' : 'num';
}

export function renderPreview(preview: PreviewData): void {
  pageElement('#changed').hidden = true;
  pageElement('#title').textContent = `Reset offsets of ${preview.groupId}`;
  const fields: Array<[string, string]> = [
    ['Cluster', preview.cluster],
    ['Group', preview.groupId],
    ['State', preview.groupState],
    ['Scenario', preview.scenario],
    ['Scope', preview.scope],
    ['Partitions', String(preview.rows.length)],
  ];
  pageElement('#summary').replaceChildren(...fields.flatMap(([name, value]) => [cell('dt', name), cell('dd', value)]));
  pageElement('#warnings').replaceChildren(...preview.warnings.map((warning) => cell('li', warning)));
  pageElement('#plan tbody').replaceChildren(
    ...preview.rows.map((r) =>
      row([
        cell('td', r.topic),
        cell('td', String(r.partition), 'num'),
        cell('td', r.current, 'num'),
        cell('td', r.next, 'num'),
        cell('td', r.difference, differenceClass(r.difference)),
        cell('td', r.warning, r.warning ? 'warning' : ''),
      ]),
    ),
  );
}

export function renderChanged(changed: ChangedData): void {
  pageElement('#changed-summary').textContent = changed.summary;
  pageElement('#changed-lines').replaceChildren(...changed.lines.map((line) => cell('li', line)));
  pageElement('#changed').hidden = false;
}

export function renderResults(summary: string, rows: readonly ResultRowData[]): void {
  pageElement('#results').hidden = false;
  pageElement('#results-summary').textContent = summary;
  pageElement('#results tbody').replaceChildren(...rows.map((r) => row([cell('td', r.topic), cell('td', String(r.partition), 'num'), cell('td', r.status, r.ok ? 'ok' : 'failed')])));
}

export function renderStatus(text: string): void {
  pageElement('#status').textContent = text;
}
