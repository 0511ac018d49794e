/**
 * Reads the extension's contributions from package.json, so the VS Code tests exercise the commands and
 * views the manifest really declares, and can say plainly which planned feature is not contributed yet.
 */
import * as fs from 'fs';
import * as path from 'path';

export interface ContributedCommand {
  command: string;
  title: string;
  category?: string;
}

interface MenuEntry {
  command: string;
  when?: string;
}

interface ViewContainer {
  id: string;
  title: string;
}

interface Manifest {
  publisher: string;
  name: string;
  contributes?: {
    commands?: ContributedCommand[];
    menus?: Record<string, MenuEntry[]>;
    viewsContainers?: { activitybar?: ViewContainer[] };
    views?: Record<string, Array<{ id: string; name: string }>>;
  };
}

/** The repository root: the nearest folder above this file with the extension's package.json (this file also runs bundled into out/). */
function findRepoRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest) && (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string }).name === 'kafka-group-lens') {
      return dir;
    }
    if (path.dirname(dir) === dir) {
      throw new Error(`no kafka-group-lens package.json above ${start}`);
    }
  }
}

export const repoRoot = findRepoRoot(__dirname);

export function readManifest(): Manifest {
  return JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as Manifest;
}

export function extensionId(manifest: Manifest = readManifest()): string {
  return `${manifest.publisher}.${manifest.name}`;
}

export function contributedCommand(id: string, manifest: Manifest = readManifest()): ContributedCommand | undefined {
  return manifest.contributes?.commands?.find((c) => c.command === id);
}

/** The first contributed command whose id matches, e.g. the reset preview under whatever final name it gets. */
export function findCommand(idPattern: RegExp, manifest: Manifest = readManifest()): ContributedCommand | undefined {
  return manifest.contributes?.commands?.find((c) => idPattern.test(c.command));
}

/** Whether the command appears in the tree's context menu (view/item/context). */
export function isInItemContextMenu(id: string, manifest: Manifest = readManifest()): boolean {
  return (manifest.contributes?.menus?.['view/item/context'] ?? []).some((entry) => entry.command === id);
}

/** The activity-bar container that holds the given view. */
export function containerOfView(viewId: string, manifest: Manifest = readManifest()): ViewContainer | undefined {
  const views = manifest.contributes?.views ?? {};
  const containerId = Object.keys(views).find((key) => views[key].some((v) => v.id === viewId));
  return manifest.contributes?.viewsContainers?.activitybar?.find((c) => c.id === containerId);
}

/** Ids the suites rely on; kept here so both suites name them once. */
export const GROUPS_VIEW_ID = 'kafkaGroupLens.groups';
export const ADD_CONSUMER_COMMAND_ID = 'kafkaGroupLens.sim.addConsumer';
export const OPEN_TIMELINE_COMMAND_ID = 'kafkaGroupLens.openTimeline';
export const OPEN_DASHBOARD_COMMAND_ID = 'kafkaGroupLens.openDashboard';
export const REFRESH_COMMAND_ID = 'kafkaGroupLens.refresh';
/** The reset preview has no fixed id yet; any contributed command with "reset" in its id counts. */
export const RESET_COMMAND_PATTERN = /reset/i;
