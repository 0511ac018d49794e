import assert from 'node:assert/strict';
import { FrameReader, MAX_FRAME_BYTES } from '../../../../src/simulator/server/frameReader';

function frame(body: string): Buffer {
  const size = Buffer.alloc(4);
  size.writeInt32BE(body.length);
  return Buffer.concat([size, Buffer.from(body)]);
}

describe('simulator/server/frameReader', () => {
  it('splits frames however the bytes arrive', () => {
    const reader = new FrameReader();
    const stream = Buffer.concat([frame('abc'), frame(''), frame('de')]);
    const out: string[] = [];
    for (let i = 0; i < stream.length; i += 2) {
      out.push(...reader.push(stream.subarray(i, i + 2)).map((f) => f.toString()));
    }
    assert.deepEqual(out, ['abc', '', 'de']);
    assert.equal(reader.buffered, 0);
  });

  it('keeps an incomplete frame until the rest arrives', () => {
    const reader = new FrameReader();
    assert.deepEqual(reader.push(frame('hello').subarray(0, 6)), []);
    assert.equal(reader.buffered, 6);
  });

  it('rejects negative sizes and sizes above socket.request.max.bytes (104857600), as Kafka\'s InvalidReceiveException', () => {
    assert.equal(MAX_FRAME_BYTES, 104857600);
    const size = Buffer.alloc(4);
    size.writeInt32BE(-5);
    assert.throws(() => new FrameReader().push(size), /invalid receive \(size = -5/);
    size.writeInt32BE(MAX_FRAME_BYTES + 1);
    assert.throws(() => new FrameReader().push(size), /size = 104857601 larger than 104857600/);
    size.writeInt32BE(MAX_FRAME_BYTES);
    assert.deepEqual(new FrameReader().push(size), [], 'the largest allowed size waits for its bytes');
    size.writeInt32BE(101);
    assert.throws(() => new FrameReader(100).push(size), /larger than 100/);
  });

  it('assembles a frame sent in many chunks with a bounded number of byte copies (linear, not quadratic)', () => {
    const body = Buffer.alloc(1600 * 1024, 7);
    const size = Buffer.alloc(4);
    size.writeInt32BE(body.length);
    const whole = Buffer.concat([size, body]);
    const originalConcat = Buffer.concat;
    let copied = 0;
    Buffer.concat = ((list: readonly Uint8Array[], totalLength?: number) => {
      const out = originalConcat(list, totalLength);
      copied += out.length;
      return out;
    });
    const reader = new FrameReader();
    const frames: Buffer[] = [];
    try {
      for (let i = 0; i < whole.length; i += 1024) {
        frames.push(...reader.push(whole.subarray(i, i + 1024)));
      }
    } finally {
      Buffer.concat = originalConcat;
    }
    assert.equal(frames.length, 1);
    assert.ok(frames[0].equals(body));
    // Joining at every chunk copied about chunks^2 / 2 KiB (1.3 GB here); once per frame copies it once.
    assert.ok(copied <= 2 * whole.length, `copied ${copied} bytes for a ${whole.length}-byte frame`);
  });
});
