/**
 * Times what kafkajs sends, per API (count, total and longest round trip), by wrapping its Connection
 * class's send, through which every request of ours and of kafkajs goes. Bench instrumentation only:
 * nothing sent changes. Requests in flight at once overlap, so totals can exceed the wall time.
 */
import Connection from 'kafkajs/src/network/connection';

type Send = (this: unknown, protocol: { request: { apiName: string } }) => Promise<unknown>;

interface Timing {
  count: number;
  totalMs: number;
  maxMs: number;
}

export class RequestTimings {
  private readonly timings = new Map<string, Timing>();
  private restore: (() => void) | null = null;

  /** Starts timing (from zero). */
  start(): this {
    this.stop();
    this.timings.clear();
    const proto = Connection.prototype as unknown as { send: Send };
    const { send } = proto;
    const { timings } = this;
    proto.send = async function (this: unknown, protocol) {
      const started = performance.now();
      try {
        return await send.call(this, protocol);
      } finally {
        const ms = performance.now() - started;
        const timing = timings.get(protocol.request.apiName) ?? { count: 0, totalMs: 0, maxMs: 0 };
        timing.count++;
        timing.totalMs += ms;
        timing.maxMs = Math.max(timing.maxMs, ms);
        timings.set(protocol.request.apiName, timing);
      }
    };
    this.restore = () => {
      proto.send = send;
    };
    return this;
  }

  stop(): void {
    this.restore?.();
    this.restore = null;
  }

  /** Requests sent while timing, of every API. */
  requestCount(): number {
    return [...this.timings.values()].reduce((sum, t) => sum + t.count, 0);
  }

  /** One line per API, the longest total first: "ApiName: n requests, total ms, max ms". */
  lines(): string[] {
    return [...this.timings]
      .sort(([, a], [, b]) => b.totalMs - a.totalMs)
      .map(([name, t]) => `${name}: ${t.count} requests, ${Math.round(t.totalMs)} ms in all, ${Math.round(t.maxMs)} ms at most`);
  }
}
