/**
 * The page's side of the protocol: checks each message from the panel, keeps the plan's status it
 * implies, and hands the data to the renderer.
 */
import { isPreviewHostMessage, type PreviewHostMessage } from '../resetPreviewProtocol';
import { updateButtons, type PlanStatus } from './buttons';
import { renderChanged, renderPreview, renderResults, renderStatus } from './render';

/** Returns the handler for whatever arrives on the window's message event; `report` hears what it refused. */
export function hostMessageHandler(report: (problem: string) => void): (data: unknown) => void {
  const status: PlanStatus = { busy: false, executed: false, changed: false };
  return (data) => {
    if (!isPreviewHostMessage(data)) {
      report('ignored a malformed message from the extension');
      return;
    }
    apply(data, status);
    updateButtons(status);
  };
}

function apply(message: PreviewHostMessage, status: PlanStatus): void {
  switch (message.type) {
    case 'preview':
      // A new plan (after Re-plan) replaces a stale one and allows Execute again.
      status.changed = false;
      renderPreview(message.preview);
      break;
    case 'changed':
      status.changed = true;
      renderChanged(message.changed);
      break;
    case 'status':
      status.busy = message.busy;
      renderStatus(message.text);
      break;
    case 'results':
      status.executed = true;
      status.busy = false;
      renderResults(message.summary, message.rows);
      break;
  }
}
