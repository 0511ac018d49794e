// Types for the kafkajs 2.2.4 internals used by kafkajsBridge.ts and recordBatches.ts (the package ships no types for them).
declare module 'kafkajs/src/protocol/encoder' {
  export default class Encoder {
    writeBuffer(value: Buffer): Encoder;
  }
}

declare module 'kafkajs/src/protocol/error' {
  export const errorCodes: ReadonlyArray<{ type: string; code: number; retriable: boolean; message: string }>;
}

declare module 'kafkajs/src/protocol/message/compression' {
  /** kafkajs's codec for a batch's compression attribute (GZIP built in), or null for none. */
  export function lookupCodecByAttributes(attributes: number): { decompress(buffer: Buffer): Promise<Buffer> } | null;
}
