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

  it('rejects negative and oversized frame sizes', () => {
    const size = Buffer.alloc(4);
    size.writeInt32BE(-5);
    assert.throws(() => new FrameReader().push(size), /frame size -5/);
    size.writeInt32BE(MAX_FRAME_BYTES + 1);
    assert.throws(() => new FrameReader().push(size), /outside/);
  });
});
