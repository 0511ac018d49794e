/** Splits a TCP byte stream into Kafka request frames (int32 size, then that many bytes). */
import { ProtocolError } from '../../protocol/errors';

/** Kafka's socket.request.max.bytes default (100 MiB): a larger declared size closes the connection. */
export const MAX_FRAME_BYTES = 104_857_600;

const SIZE_BYTES = 4;

/**
 * Received chunks are kept as they arrive and joined once, when the frame they belong to is
 * complete: a frame sent in many chunks costs time linear in its size (joining at every chunk
 * copied the growing prefix each time, quadratic in the chunk count).
 */
export class FrameReader {
  private chunks: Buffer[] = [];
  private length = 0;
  /** Size of the frame being assembled, once its size field has arrived; -1 before. */
  private frameSize = -1;

  constructor(private readonly maxFrameBytes = MAX_FRAME_BYTES) {}

  /** Adds received bytes and returns every frame they complete; throws on an impossible size (Kafka's InvalidReceiveException). */
  push(chunk: Buffer): Buffer[] {
    if (chunk.length > 0) {
      this.chunks.push(chunk);
      this.length += chunk.length;
    }
    const frames: Buffer[] = [];
    for (;;) {
      if (this.frameSize < 0) {
        if (this.length < SIZE_BYTES) {
          break;
        }
        const size = this.joined().readInt32BE(0);
        if (size < 0 || size > this.maxFrameBytes) {
          throw new ProtocolError(`invalid receive (size = ${size}${size < 0 ? '' : ` larger than ${this.maxFrameBytes}`}, socket.request.max.bytes)`);
        }
        this.frameSize = size;
      }
      const end = SIZE_BYTES + this.frameSize;
      if (this.length < end) {
        break;
      }
      const all = this.joined();
      frames.push(all.subarray(SIZE_BYTES, end));
      const rest = all.subarray(end);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.length = rest.length;
      this.frameSize = -1;
    }
    return frames;
  }

  /** Bytes of an incomplete frame still waiting for the rest. */
  get buffered(): number {
    return this.length;
  }

  /** The buffered bytes as one buffer (one copy, and only when they came in several chunks). */
  private joined(): Buffer {
    if (this.chunks.length > 1) {
      this.chunks = [Buffer.concat(this.chunks, this.length)];
    }
    return this.chunks[0];
  }
}
