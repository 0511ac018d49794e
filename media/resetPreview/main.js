// @ts-check
/* global document, window, acquireVsCodeApi */
// The reset preview page: renders the plan the extension posts and sends button presses back.
// Every value is set with textContent; nothing from a message is parsed as HTML.
(function () {
  const vscode = acquireVsCodeApi();
  const $ = (/** @type {string} */ selector) => /** @type {HTMLElement} */ (document.querySelector(selector));
  /** Set once results arrive: a preview is executed at most once. */
  let executed = false;
  /** Set when Execute found the group changed: Execute waits for a new plan (Re-plan). */
  let changed = false;
  let busy = false;

  function setBusy(/** @type {boolean} */ value) {
    busy = value;
    document.body.classList.toggle('busy', busy);
    for (const button of document.querySelectorAll('button[data-action]')) {
      const action = /** @type {HTMLElement} */ (button).dataset.action;
      const done = (executed && (action === 'execute' || action === 'replan')) || (changed && action === 'execute');
      /** @type {HTMLButtonElement} */ (button).disabled = busy || done;
    }
  }

  function renderChanged(/** @type {{ summary: string, lines: string[] }} */ report) {
    changed = true;
    $('#changed-summary').textContent = report.summary;
    $('#changed-lines').replaceChildren(...report.lines.map((line) => cell('li', line)));
    $('#changed').hidden = false;
    setBusy(busy);
  }

  /** @param {string} tag @param {string} text @param {string} [className] */
  function cell(tag, text, className) {
    const element = document.createElement(tag);
    element.textContent = text;
    if (className) {
      element.className = className;
    }
    return element;
  }

  function setSummary(/** @type {Array<[string, string]>} */ fields) {
    const summary = $('#summary');
    summary.replaceChildren();
    for (const [name, value] of fields) {
      summary.append(cell('dt', name), cell('dd', value));
    }
  }

  function renderPreview(preview) {
    changed = false;
    $('#changed').hidden = true;
    $('#title').textContent = `Reset offsets of ${preview.groupId}`;
    setSummary([
      ['Cluster', preview.cluster],
      ['Group', preview.groupId],
      ['State', preview.groupState],
      ['Scenario', preview.scenario],
      ['Scope', preview.scope],
      ['Partitions', String(preview.rows.length)],
    ]);
    const warnings = $('#warnings');
    warnings.replaceChildren(...preview.warnings.map((w) => cell('li', w)));
    const body = $('#plan tbody');
    body.replaceChildren(
      ...preview.rows.map((row) => {
        const tr = document.createElement('tr');
        const diffClass = row.difference.startsWith('-') ? 'num back' : row.difference.startsWith('+') ? 'num ahead' : 'num';
        tr.append(
          cell('td', row.topic),
          cell('td', String(row.partition), 'num'),
          cell('td', row.current, 'num'),
          cell('td', row.next, 'num'),
          cell('td', row.difference, diffClass),
          cell('td', row.warning, row.warning ? 'warning' : ''),
        );
        return tr;
      }),
    );
  }

  function renderResults(summary, rows) {
    const section = $('#results');
    section.hidden = false;
    $('#results-summary').textContent = summary;
    const body = $('#results tbody');
    body.replaceChildren(
      ...rows.map((row) => {
        const tr = document.createElement('tr');
        tr.append(cell('td', row.topic), cell('td', String(row.partition), 'num'), cell('td', row.status, row.ok ? 'ok' : 'failed'));
        return tr;
      }),
    );
    executed = true;
    setBusy(false);
  }

  for (const button of document.querySelectorAll('button[data-action]')) {
    button.addEventListener('click', () => vscode.postMessage({ type: 'action', action: /** @type {HTMLElement} */ (button).dataset.action }));
  }

  window.addEventListener('message', (event) => {
    const message = event.data;
    if (!message || typeof message.type !== 'string') {
      return;
    }
    if (message.type === 'preview') {
      renderPreview(message.preview);
      setBusy(busy);
    } else if (message.type === 'changed') {
      renderChanged(message.changed);
    } else if (message.type === 'status') {
      $('#status').textContent = message.text;
      setBusy(Boolean(message.busy));
    } else if (message.type === 'results') {
      renderResults(message.summary, message.rows);
    }
  });

  vscode.postMessage({ type: 'ready' });
})();
