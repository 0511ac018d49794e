/**
 * One long-lived client connection through the generated codecs, as a real client keeps one per broker: share
 * sessions belong to the connection that opened them, so their tests cannot open a connection per request.
 */
import { Socket } from 'node:net';
import { ByteReader } from '../../../../src/protocol/byteReader';
import { encodeRequest, readResponseHeader } from '../../../../src/protocol/headers';
import { decode, type MessageCodec } from '../../../../src/protocol/runtime';

interface Pending {
  apiKey: number;
  version: number;
  resolve(frame: Buffer): void;
  reject(error: Error): void;
}

export class WireConnection {
  private readonly socket = new Socket();
  private buffered = Buffer.alloc(0);
  private nextCorrelationId = 1;
  private readonly pending = new Map<number, Pending>();
  private closed = false;

  private constructor(readonly port: number, private readonly clientId: string) {}

  static async open(port: number, clientId = 'wire-test'): Promise<WireConnection> {
    const connection = new WireConnection(port, clientId);
    await new Promise<void>((resolve, reject) => {
      connection.socket.once('error', reject);
      connection.socket.connect(port, '127.0.0.1', () => {
        connection.socket.off('error', reject);
        resolve();
      });
    });
    connection.socket.on('data', (chunk) => connection.receive(chunk));
    connection.socket.on('error', () => undefined);
    connection.socket.on('close', () => connection.fail(new Error('the server closed the connection')));
    return connection;
  }

  /** Sends one request and resolves with its decoded response (responses may come in any order). */
  request<Req, Res>(request: MessageCodec<Req>, response: MessageCodec<Res>, version: number, body: Req): Promise<Res> {
    if (this.closed) {
      return Promise.reject(new Error('the connection is closed'));
    }
    const correlationId = this.nextCorrelationId++;
    const bytes = encodeRequest(request, version, { correlationId, clientId: this.clientId }, body);
    const size = Buffer.alloc(4);
    size.writeInt32BE(bytes.length);
    const answered = new Promise<Buffer>((resolve, reject) => {
      this.pending.set(correlationId, { apiKey: request.apiKey ?? -1, version, resolve, reject });
    });
    this.socket.write(Buffer.concat([size, bytes]));
    return answered.then((frame) => {
      const reader = new ByteReader(frame, 4);
      readResponseHeader(reader, request.apiKey ?? -1, version);
      return decode(response, reader.rest(), version);
    });
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  close(): void {
    this.closed = true;
    this.socket.destroy();
  }

  private receive(chunk: Buffer): void {
    this.buffered = Buffer.concat([this.buffered, chunk]);
    while (this.buffered.length >= 8 && this.buffered.length >= 4 + this.buffered.readInt32BE(0)) {
      const frame = this.buffered.subarray(0, 4 + this.buffered.readInt32BE(0));
      this.buffered = this.buffered.subarray(frame.length);
      const correlationId = frame.readInt32BE(4);
      const waiting = this.pending.get(correlationId);
      this.pending.delete(correlationId);
      waiting?.resolve(Buffer.from(frame));
    }
  }

  private fail(error: Error): void {
    this.closed = true;
    for (const waiting of this.pending.values()) {
      waiting.reject(error);
    }
    this.pending.clear();
  }
}
