/**
 * Which simulators this window serves over the Kafka protocol ("Expose Simulator on a Port…"), and at which
 * listeners. "Copy as CLI command" on a simulator group names these, never the simulated brokers' own
 * addresses (127.0.0.1:9092…), which nothing serves unless the simulator is exposed there: a local Kafka on
 * 9092 would otherwise receive the copied --execute.
 */
export class SimulatorExposures {
  private readonly servers = new Map<string, readonly string[]>();

  /** Records that `sourceId` is served at these host:port listeners. */
  set(sourceId: string, bootstrapServers: readonly string[]): void {
    this.servers.set(sourceId, [...bootstrapServers]);
  }

  delete(sourceId: string): void {
    this.servers.delete(sourceId);
  }

  /** The listeners serving `sourceId`, or undefined when it is not exposed. */
  bootstrapServers(sourceId: string): readonly string[] | undefined {
    return this.servers.get(sourceId);
  }
}
