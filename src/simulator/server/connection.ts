/**
 * One client connection: frames in, requests dispatched, responses out in request order (as a
 * broker's muted channel sends them). Anything malformed closes this connection with a log line;
 * the server and the other connections carry on.
 */
import type { Socket } from 'node:net';
import { ByteReader } from '../../protocol/byteReader';
import { errorMessage } from '../../protocol/errors';
import { readRequestHeader } from '../../protocol/headers';
import { RequestHeader, type RequestHeaderData } from '../../protocol/messages/requestHeader';
import { API_VERSIONS_KEY, findApi, unsupportedApiVersionsResponse } from './apis';
import type { ServerState } from './context';
import { FrameReader } from './frameReader';

/** What a connection needs from its server beyond the handlers' ServerState. */
export interface ConnectionHost {
  readonly state: ServerState;
  /** socket.request.max.bytes. */
  readonly maxFrameBytes: number;
  /** connections.max.idle.ms: a connection with no traffic for this long is closed. */
  readonly idleMs: number;
  /** Adds `delta` to the bytes held for incomplete frames across connections; false when that is over the bound. */
  changeBuffered(delta: number): boolean;
  /** Called with the API key after each dispatched request, so the engine can answer without waiting for a tick. */
  onRequest(apiKey: number): void;
  /** Whether to log each request's API, version and client id. */
  readonly logRequests: boolean;
}

export class ClientConnection {
  private readonly frames: FrameReader;
  /** The response written last; the next one waits for it. */
  private tail: Promise<void> = Promise.resolve();
  private open = true;
  private readonly closeListeners = new Set<() => void>();
  readonly remote: string;

  constructor(
    private readonly socket: Socket,
    private readonly host: ConnectionHost,
    private readonly nodeId: number,
  ) {
    this.remote = `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? '?'}`;
    this.frames = new FrameReader(host.maxFrameBytes);
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', (error) => this.close(`socket error: ${error.message}`));
    socket.on('close', () => this.closed());
    socket.setTimeout(host.idleMs, () => this.close(`no traffic for ${host.idleMs} ms (connections.max.idle.ms)`));
  }

  get isOpen(): boolean {
    return this.open;
  }

  /** Closes the connection, logging why unless the reason is empty. */
  close(reason: string): void {
    if (!this.open) {
      return;
    }
    if (reason) {
      this.host.state.log(`broker ${this.nodeId}: closing connection from ${this.remote}: ${reason}`);
    }
    this.closed();
    this.socket.destroy();
  }

  /** Releases what the connection holds: buffered bytes and requests parked on the engine. */
  private closed(): void {
    if (!this.open) {
      return;
    }
    this.open = false;
    this.host.changeBuffered(-this.frames.buffered);
    const listeners = [...this.closeListeners];
    this.closeListeners.clear();
    for (const listener of listeners) {
      listener();
    }
  }

  private onClose(listener: () => void): () => void {
    if (!this.open) {
      listener();
      return () => undefined;
    }
    this.closeListeners.add(listener);
    return () => {
      this.closeListeners.delete(listener);
    };
  }

  private receive(chunk: Buffer): void {
    if (!this.open) {
      return;
    }
    const before = this.frames.buffered;
    let frames: Buffer[];
    try {
      frames = this.frames.push(chunk);
    } catch (error) {
      this.host.changeBuffered(this.frames.buffered - before); // close() releases all of it
      this.close(errorMessage(error));
      return;
    }
    if (!this.host.changeBuffered(this.frames.buffered - before)) {
      this.close(`${this.frames.buffered} byte(s) of an incomplete request would take the bytes held for incomplete requests past the server's bound`);
      return;
    }
    for (const frame of frames) {
      if (!this.open) {
        return;
      }
      this.handle(frame);
    }
  }

  private handle(frame: Buffer): void {
    let header: RequestHeaderData | undefined;
    let response: Promise<Uint8Array | null>;
    try {
      // Key, version, correlation id and client id open every header version (v2 adds tagged fields after them).
      header = RequestHeader.read(new ByteReader(frame), 1);
      response = this.dispatch(header, frame);
    } catch (error) {
      this.close(`${header ? `${requestName(header)}: ` : ''}${errorMessage(error)}`);
      return;
    }
    const name = requestName(header);
    this.host.onRequest(header.requestApiKey);
    if (this.host.logRequests) {
      this.host.state.log(`request ${findApi(header.requestApiKey)?.name ?? header.requestApiKey} v${header.requestApiVersion} from ${header.clientId ?? ''}`);
    }
    this.tail = this.tail
      .then(() => response)
      .then(
        (bytes) => {
          if (bytes !== null) {
            this.write(bytes);
          }
        },
        (error: unknown) => this.close(`${name}: ${errorMessage(error)}`),
      )
      // Nothing a client sends may end as an unhandled rejection (which ends the process).
      .catch((error: unknown) => this.close(`${name}: writing the response failed: ${errorMessage(error)}`));
  }

  private dispatch(header: RequestHeaderData, frame: Buffer): Promise<Uint8Array | null> {
    const api = findApi(header.requestApiKey);
    if (!api) {
      throw new Error(`unknown API key ${header.requestApiKey}`);
    }
    const version = header.requestApiVersion;
    if (version < api.minVersion || version > api.maxVersion) {
      if (header.requestApiKey === API_VERSIONS_KEY && version > api.maxVersion) {
        return Promise.resolve(unsupportedApiVersionsResponse(header.correlationId));
      }
      throw new Error(`version ${version} is not supported (${api.minVersion}..${api.maxVersion})`);
    }
    const reader = new ByteReader(frame);
    readRequestHeader(reader);
    return api.serve(reader, header.correlationId, {
      server: this.host.state,
      nodeId: this.nodeId,
      apiVersion: version,
      clientId: header.clientId ?? '',
      clientHost: `/${this.socket.remoteAddress ?? 'unknown'}`,
      onConnectionClose: (listener) => this.onClose(listener),
    });
  }

  private write(response: Uint8Array): void {
    if (!this.open) {
      return;
    }
    const size = Buffer.alloc(4);
    size.writeInt32BE(response.length);
    this.socket.write(Buffer.concat([size, response]));
  }
}

function requestName(header: RequestHeaderData): string {
  return `${findApi(header.requestApiKey)?.name ?? `API ${header.requestApiKey}`} v${header.requestApiVersion} (correlation ${header.correlationId})`;
}

