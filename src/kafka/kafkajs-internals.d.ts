// Types for the kafkajs 2.2.4 internals used by kafkajsBridge.ts (the package ships no types for them).
declare module 'kafkajs/src/protocol/encoder' {
  export default class Encoder {
    writeBuffer(value: Buffer): Encoder;
  }
}

declare module 'kafkajs/src/protocol/error' {
  /** kafkajs's table of Kafka error codes; the tests compare it with ours. */
  export const errorCodes: ReadonlyArray<{ type: string; code: number; retriable: boolean; message: string }>;
}
