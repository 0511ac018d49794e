/**
 * Counts what kafkajs sends, per API, by wrapping its Connection class (every request of ours and of
 * kafkajs goes through Connection.send, SASL handshakes included) and the sockets it opens.
 * Test instrumentation only: it changes nothing sent.
 */
import Connection from 'kafkajs/src/network/connection';

type Send = (this: unknown, protocol: { request: { apiName: string } }) => Promise<unknown>;
type Connect = (this: unknown) => Promise<unknown>;

export class RequestCounter {
  private readonly counts = new Map<string, number>();
  private readonly opened = { count: 0 };
  private restore: (() => void) | null = null;

  /** Starts counting (from zero). */
  start(): this {
    this.stop();
    this.counts.clear();
    this.opened.count = 0;
    const proto = Connection.prototype as unknown as { send: Send; connect: Connect };
    const { send, connect } = proto;
    const { counts, opened } = this;
    proto.send = function (this: unknown, protocol) {
      counts.set(protocol.request.apiName, (counts.get(protocol.request.apiName) ?? 0) + 1);
      return send.call(this, protocol);
    };
    proto.connect = function (this: unknown) {
      opened.count++;
      return connect.call(this);
    };
    this.restore = () => {
      proto.send = send;
      proto.connect = connect;
    };
    return this;
  }

  stop(): void {
    this.restore?.();
    this.restore = null;
  }

  count(apiName: string): number {
    return this.counts.get(apiName) ?? 0;
  }

  /** Sockets kafkajs opened (each one a TCP connection, and a SASL login on a SASL listener). */
  get connections(): number {
    return this.opened.count;
  }

  /** "ApiName×n" sorted by name, and the connections opened: for reports and assertion messages. */
  summary(): string {
    const parts = [...this.counts].sort(([a], [b]) => a.localeCompare(b)).map(([name, n]) => `${name}×${n}`);
    return `${parts.join(' ')} (connections opened: ${this.opened.count})`;
  }

  total(): number {
    return [...this.counts.values()].reduce((a, b) => a + b, 0);
  }
}
