/** Bytes that do not parse as the message they claim to be (truncated, negative or huge counts, bad varints). */
export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';
}

/**
 * A version this code cannot read or write, or a value the version cannot carry (Kafka's
 * UnsupportedVersionException, e.g. "Attempted to write a non-default groupInstanceId at version 4").
 */
export class UnsupportedVersionError extends Error {
  override readonly name = 'UnsupportedVersionError';
}

/** The text of anything thrown: an Error's message, or the value itself as a string. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
