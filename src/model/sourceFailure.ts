/**
 * Why a source could not load, as far as the views need to know: an authentication or authorization
 * failure must never be retried on our own (a wrong password retried in a loop locks accounts and floods
 * audit logs), while an unreachable or slow cluster is retried with backoff.
 */
export type SourceFailureKind = 'unreachable' | 'tls' | 'authentication' | 'authorization' | 'timeout' | 'other';

/** The failure kind a source attached to its error (`kind`), or 'other'. */
export function failureKind(error: unknown): SourceFailureKind {
  const kind = (error as { kind?: unknown } | null | undefined)?.kind;
  switch (kind) {
    case 'unreachable':
    case 'tls':
    case 'authentication':
    case 'authorization':
    case 'timeout':
      return kind;
    default:
      return 'other';
  }
}

/** Failures that only the user can mend (credentials, ACLs): no automatic retry. */
export function needsUserAction(kind: SourceFailureKind): boolean {
  return kind === 'authentication' || kind === 'authorization';
}
