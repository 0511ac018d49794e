import { strict as assert } from 'assert';
import { freePorts, randomClusterId } from '../../../scripts/kafka/broker';

describe('test broker cluster id (scripts/kafka/broker.js)', () => {
  it('redraws an id that kafka-storage would read as an option, as Kafka\'s Uuid.randomUuid() does', () => {
    // 0xf8 first encodes to "-" in URL-safe base64: the draw that made 1 broker start in 64 fail.
    const draws = [Buffer.alloc(16, 0xf8), Buffer.from('00112233445566778899aabbccddeeff', 'hex')];
    let drawn = 0;
    const id = randomClusterId(() => Buffer.from(draws[drawn++]));
    assert.equal(drawn, 2, 'the "-" draw is redrawn');
    assert.equal(id, Buffer.from('00112233445546778899aabbccddeeff', 'hex').toString('base64url'));
  });

  it('never starts with "-" and is a type-4 UUID of 22 characters', () => {
    for (let i = 0; i < 2000; i++) {
      const id = randomClusterId();
      assert.match(id, /^[A-Za-z0-9_][A-Za-z0-9_-]{21}$/);
      const bytes = Buffer.from(id, 'base64url');
      assert.equal(bytes[6] >> 4, 4);
      assert.equal(bytes[8] >> 6, 2);
    }
  });
});

describe('test broker ports (scripts/kafka/broker.js)', () => {
  it('hands out distinct ports for the listeners of one broker', async () => {
    for (let i = 0; i < 50; i++) {
      const ports = await freePorts(3);
      assert.equal(new Set(ports).size, 3, `ports ${ports.join(', ')}`);
    }
  });
});
