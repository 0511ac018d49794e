/**
 * Copy as CLI of a reset preview: the --bootstrap-server the copied kafka-consumer-groups.sh line names, and the
 * offer to save the --command-config file a secured cluster's line reads.
 */
import { writeFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { CliCommandConfig } from '../model/clusterSource';
import type { GroupTarget } from '../commands/groupTarget';
import type { SimulatorExposures } from '../commands/simulatorExposures';

/**
 * The --bootstrap-server of a copied CLI line: a real cluster's brokers; for the simulator the listeners it is
 * exposed at, and a refusal when it is not exposed (its brokers' addresses are served by nothing, or by a local
 * Kafka that happens to use them).
 */
export async function cliBootstrapServers(target: GroupTarget, exposures: Pick<SimulatorExposures, 'bootstrapServers'>): Promise<string[]> {
  if (target.source.kind === 'simulator') {
    const exposed = exposures.bootstrapServers(target.sourceId);
    if (!exposed) {
      throw new Error(`kafka-consumer-groups.sh cannot reach "${target.source.label}": expose the simulator on a port first (Expose Simulator on a Port…)`);
    }
    return [...exposed];
  }
  const info = await target.source.describeCluster();
  return info.brokers.map((b) => `${b.host}:${b.port}`);
}

/**
 * The copied line of a secured cluster names a --command-config file: offer to save it (without
 * secrets) where the user runs the line.
 */
export async function offerCommandConfig(config: CliCommandConfig, clusterLabel: string): Promise<void> {
  const save = 'Save Client Properties…';
  const answer = await vscode.window.showInformationMessage(
    `The copied command reads the client properties of ${clusterLabel} from ${config.fileName} (--command-config). Save that file next to where you run it, then fill in the password.`,
    save,
  );
  if (answer !== save) {
    return;
  }
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const uri = await vscode.window.showSaveDialog({
    title: 'Save Client Properties',
    defaultUri: folder ? vscode.Uri.joinPath(folder, config.fileName) : undefined,
    filters: { Properties: ['properties'] },
    saveLabel: 'Save',
  });
  if (uri) {
    // Readable by its owner only: it gets a password once filled in.
    await writeFile(uri.fsPath, config.properties, { encoding: 'utf8', mode: 0o600 });
    void vscode.window.showInformationMessage(`Saved ${uri.fsPath}; replace the placeholders (such as <password>) before running the command.`);
  }
}
