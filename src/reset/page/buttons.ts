/**
 * The page's input: its buttons post their action to the panel, and are enabled only where the action
 * can run. The panel re-checks every action anyway; this only keeps the page from offering what it
 * would refuse.
 */
import { isPreviewAction, type PreviewAction } from '../resetPreviewProtocol';

/** What the page knows of the plan, as the panel's messages told it. */
export interface PlanStatus {
  /** The panel is executing or re-planning: every button waits. */
  busy: boolean;
  /** Results arrived: a preview is executed at most once. */
  executed: boolean;
  /** Execute found the group changed: Execute waits for a new plan (Re-plan). */
  changed: boolean;
}

function actionButtons(): HTMLButtonElement[] {
  return Array.from(document.querySelectorAll<HTMLButtonElement>('button[data-action]'));
}

/** Wires every button with a `data-action` naming a PreviewAction; one that names anything else is a bug in the HTML shell. */
export function wireButtons(post: (action: PreviewAction) => void): void {
  for (const button of actionButtons()) {
    const action = button.dataset.action;
    if (!isPreviewAction(action)) {
      throw new Error(`reset preview page: button #${button.id} has an unknown action ${String(action)}`);
    }
    button.addEventListener('click', () => post(action));
  }
}

function isDone(action: PreviewAction, status: PlanStatus): boolean {
  return (status.executed && (action === 'execute' || action === 'replan')) || (status.changed && action === 'execute');
}

export function updateButtons(status: PlanStatus): void {
  document.body.classList.toggle('busy', status.busy);
  for (const button of actionButtons()) {
    const action = button.dataset.action;
    button.disabled = status.busy || (isPreviewAction(action) && isDone(action, status));
  }
}
