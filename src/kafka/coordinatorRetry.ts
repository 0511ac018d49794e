/** Retrying group-coordinator requests while the coordinator loads (new cluster, moved partition). */
import { COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR } from './kafkaErrors';

/** Transient while a coordinator (re)loads. */
export const COORDINATOR_LOADING_CODES: ReadonlySet<number> = new Set([COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR]);
/** kafkajs's own names for the same codes, on the errors its FindCoordinator throws. */
const COORDINATOR_LOADING_TYPES: ReadonlySet<string> = new Set(['GROUP_LOAD_IN_PROGRESS', 'GROUP_COORDINATOR_NOT_AVAILABLE', 'NOT_COORDINATOR_FOR_GROUP']);
const COORDINATOR_ATTEMPTS = 6;
const COORDINATOR_RETRY_DELAY_MS = 250;

export function isCoordinatorLoadingError(e: unknown): boolean {
  for (let current = e, depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const { type, name, cause } = current as { type?: unknown; name?: unknown; cause?: unknown };
    if ((typeof type === 'string' && COORDINATOR_LOADING_TYPES.has(type)) || name === 'KafkaJSGroupCoordinatorNotFound') {
      return true;
    }
    current = cause;
  }
  return false;
}

/**
 * Repeats attempt (with a growing pause, about 4 s in all) while its result or error says the group
 * coordinator is still loading, as it does on a new cluster right after `__consumer_offsets` is made.
 */
export async function retryWhileCoordinatorLoads<T>(
  attempt: () => Promise<T>,
  loading: (result: T) => boolean,
  delayMs = COORDINATOR_RETRY_DELAY_MS,
): Promise<T> {
  for (let i = 1; ; i++) {
    let result: T;
    try {
      result = await attempt();
    } catch (e) {
      if (i >= COORDINATOR_ATTEMPTS || !isCoordinatorLoadingError(e)) {
        throw e;
      }
      await new Promise((resolve) => setTimeout(resolve, delayMs * i));
      continue;
    }
    if (i >= COORDINATOR_ATTEMPTS || !loading(result)) {
      return result;
    }
    await new Promise((resolve) => setTimeout(resolve, delayMs * i));
  }
}

export const hasLoadingCode = (items: ReadonlyArray<{ errorCode: number }>) => items.some((item) => COORDINATOR_LOADING_CODES.has(item.errorCode));
