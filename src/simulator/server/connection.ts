/**
 * One client connection: frames in, requests dispatched, responses out in request order (as a
 * broker's muted channel sends them). Anything malformed closes this connection with a log line;
 * the server and the other connections carry on.
 */
import type { Socket } from 'node:net';
import { ByteReader, ByteWriter } from '../../kafka/protocol/wire';
import { API_VERSIONS_KEY, findApi, unsupportedApiVersionsBody } from './apis';
import type { ServerState } from './context';
import { FrameReader } from './frameReader';
import { readRequestHeader, type RequestHeader } from './requestHeader';

export class ClientConnection {
  private readonly frames = new FrameReader();
  /** The response written last; the next one waits for it. */
  private tail: Promise<void> = Promise.resolve();
  private open = true;
  readonly remote: string;

  constructor(
    private readonly socket: Socket,
    private readonly server: ServerState,
    private readonly nodeId: number,
    /** Called with the API key after each dispatched request, so the engine can answer without waiting for a tick. */
    private readonly onRequest: (apiKey: number) => void,
  ) {
    this.remote = `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? '?'}`;
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', (error) => this.close(`socket error: ${error.message}`));
    socket.on('close', () => {
      this.open = false;
    });
  }

  get isOpen(): boolean {
    return this.open;
  }

  /** Closes the connection, logging why unless the reason is empty. */
  close(reason: string): void {
    if (!this.open) {
      return;
    }
    this.open = false;
    if (reason) {
      this.server.log(`broker ${this.nodeId}: closing connection from ${this.remote}: ${reason}`);
    }
    this.socket.destroy();
  }

  private receive(chunk: Buffer): void {
    let frames: Buffer[];
    try {
      frames = this.frames.push(chunk);
    } catch (error) {
      this.close(describe(error));
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
    let header: RequestHeader | undefined;
    let response: Promise<Buffer | null>;
    try {
      const r = new ByteReader(frame, 'request');
      header = readRequestHeader(r);
      response = Promise.resolve(this.dispatch(header, r));
    } catch (error) {
      this.close(`${header ? `${requestName(header)}: ` : ''}${describe(error)}`);
      return;
    }
    const { correlationId } = header;
    const name = requestName(header);
    this.onRequest(header.apiKey);
    this.tail = this.tail
      .then(() => response)
      .then(
        (body) => {
          if (body !== null) {
            this.write(correlationId, body);
          }
        },
        (error: unknown) => this.close(`${name}: ${describe(error)}`),
      );
  }

  private dispatch(header: RequestHeader, r: ByteReader): Promise<Buffer | null> | Buffer | null {
    const api = findApi(header.apiKey);
    if (!api) {
      throw new Error(`unknown API key ${header.apiKey}`);
    }
    if (header.apiVersion < api.minVersion || header.apiVersion > api.maxVersion) {
      if (header.apiKey === API_VERSIONS_KEY && header.apiVersion > api.maxVersion) {
        return unsupportedApiVersionsBody();
      }
      throw new Error(`version ${header.apiVersion} is not supported (${api.minVersion}..${api.maxVersion})`);
    }
    return api.handle(r, {
      server: this.server,
      nodeId: this.nodeId,
      apiVersion: header.apiVersion,
      clientId: header.clientId,
      clientHost: `/${this.socket.remoteAddress ?? 'unknown'}`,
    });
  }

  private write(correlationId: number, body: Buffer): void {
    if (!this.open) {
      return;
    }
    this.socket.write(new ByteWriter().int32(4 + body.length).int32(correlationId).raw(body).toBuffer());
  }
}

function requestName(header: RequestHeader): string {
  return `${findApi(header.apiKey)?.name ?? `API ${header.apiKey}`} v${header.apiVersion} (correlation ${header.correlationId})`;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
