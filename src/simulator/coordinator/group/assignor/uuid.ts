import { PartitionAssignorError } from './types';

/**
 * org.apache.kafka.common.Uuid as the assignors need it: equality (by the canonical base64 text), hashCode() for
 * HashSet/HashMap iteration orders, and compareTo() for tie-breaks. Its text form is 16 bytes in URL-safe base64
 * without padding (22 characters).
 */
export interface KafkaUuid {
  /** The canonical text (as Uuid.toString() prints it): Java's decoder ignores the last character's spare bits. */
  text: string;
  /** Uuid.hashCode(): the two 64-bit halves xored, then the high and low 32 bits of that xored. */
  hash: number;
  /** The most and least significant 64-bit halves as signed 32-bit high words and unsigned 32-bit low words. */
  mostHigh: number;
  mostLow: number;
  leastHigh: number;
  leastLow: number;
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function uuidBytes(text: string): Uint8Array {
  if (text.length !== 22) {
    throw new PartitionAssignorError(`Topic id "${text}" is not a Kafka Uuid (22 characters of URL-safe base64)`);
  }
  const bytes = new Uint8Array(16);
  let bits = 0;
  let value = 0;
  let next = 0;
  for (const char of text) {
    const digit = BASE64URL.indexOf(char);
    if (digit < 0) {
      throw new PartitionAssignorError(`Topic id "${text}" is not a Kafka Uuid: "${char}" is not URL-safe base64`);
    }
    value = (value << 6) | digit;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[next++] = (value >>> bits) & 0xff;
    }
  }
  return bytes;
}

function word(bytes: Uint8Array, offset: number): number {
  return ((bytes[offset] << 24) | (bytes[offset + 1] << 16) | (bytes[offset + 2] << 8) | bytes[offset + 3]) | 0;
}

export function parseUuid(text: string): KafkaUuid {
  const bytes = uuidBytes(text);
  const mostHigh = word(bytes, 0);
  const mostLow = word(bytes, 4) >>> 0;
  const leastHigh = word(bytes, 8);
  const leastLow = word(bytes, 12) >>> 0;
  return { text: uuidText(bytes), hash: (mostHigh ^ leastHigh ^ mostLow ^ leastLow) | 0, mostHigh, mostLow, leastHigh, leastLow };
}

/** The Uuid of these 16 bytes as Kafka prints it. */
export function uuidText(bytes: Uint8Array): string {
  if (bytes.length !== 16) {
    throw new Error(`A Uuid has 16 bytes, got ${bytes.length}`);
  }
  let text = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      text += BASE64URL[(value >>> bits) & 0x3f];
    }
  }
  return text + BASE64URL[(value << (6 - bits)) & 0x3f];
}

/** Uuid.compareTo: the most significant half first, each half as a signed 64-bit number. */
export function compareUuids(a: KafkaUuid, b: KafkaUuid): number {
  return a.mostHigh - b.mostHigh || a.mostLow - b.mostLow || a.leastHigh - b.leastHigh || a.leastLow - b.leastLow;
}
