/** Splits a TCP byte stream into Kafka request frames (int32 size, then that many bytes). */
import { ProtocolDecodeError } from '../../kafka/protocol/wire';

/** Larger than any request a client sends here; Kafka's socket.request.max.bytes default is 100 MiB. */
export const MAX_FRAME_BYTES = 100 * 1024 * 1024;

export class FrameReader {
  private pending: Buffer = Buffer.alloc(0);

  /** Adds received bytes and returns every frame they complete; throws on an impossible size. */
  push(chunk: Buffer): Buffer[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const frames: Buffer[] = [];
    while (this.pending.length >= 4) {
      const size = this.pending.readInt32BE(0);
      if (size < 0 || size > MAX_FRAME_BYTES) {
        throw new ProtocolDecodeError(`request frame size ${size} is outside 0..${MAX_FRAME_BYTES}`);
      }
      if (this.pending.length < 4 + size) {
        break;
      }
      frames.push(this.pending.subarray(4, 4 + size));
      this.pending = this.pending.subarray(4 + size);
    }
    return frames;
  }

  /** Bytes of an incomplete frame still waiting for the rest. */
  get buffered(): number {
    return this.pending.length;
  }
}
