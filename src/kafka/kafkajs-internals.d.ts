// Types for the kafkajs 2.2.4 internals used by kafkajsBridge.ts and recordBatches.ts (the package ships no types for them).
declare module 'kafkajs/src/protocol/encoder' {
  export default class Encoder {
    writeBuffer(value: Buffer): Encoder;
  }
}

declare module 'kafkajs/src/protocol/error' {
  export const errorCodes: ReadonlyArray<{ type: string; code: number; retriable: boolean; message: string }>;
}

declare module 'kafkajs/src/protocol/decoder' {
  export default class Decoder {
    constructor(buffer: Buffer);
  }
}

declare module 'kafkajs/src/protocol/recordBatch/v0/decoder' {
  import type Decoder from 'kafkajs/src/protocol/decoder';

  /** One record as kafkajs decodes it: offsets and timestamps as decimal strings. */
  export interface KafkajsRecord {
    offset: string;
    timestamp: string;
    key: Buffer | null;
    value: Buffer | null;
  }

  /** Decodes one whole v2 record batch (decompressing it), starting at its base offset. */
  export default function decodeRecordBatch(decoder: Decoder): Promise<{ records: KafkajsRecord[] }>;
}
