/**
 * Exponential backoff with jitter, as Kafka's clients compute `reconnect.backoff.ms` /
 * `reconnect.backoff.max.ms` (org.apache.kafka.common.utils.ExponentialBackoff): the interval grows by
 * `multiplier` per failed attempt, is spread by ±`jitter` so that many windows do not retry in step, and
 * is capped at `maxInterval` after the jitter.
 */
export interface ExponentialBackoffSettings {
  initialIntervalMs: number;
  multiplier: number;
  maxIntervalMs: number;
  /** 0.2 spreads each interval over [0.8, 1.2) of its value. */
  jitter: number;
}

/** Automatic retries of a cluster that failed to load: 5 s, 10 s, 20 s … up to 5 minutes, ±20 %. */
export const SOURCE_RETRY_BACKOFF: ExponentialBackoffSettings = {
  initialIntervalMs: 5_000,
  multiplier: 2,
  maxIntervalMs: 5 * 60_000,
  jitter: 0.2,
};

export class ExponentialBackoff {
  /** The attempt count past which the interval no longer grows (Kafka's `expMax`). */
  private readonly expMax: number;

  constructor(
    private readonly settings: ExponentialBackoffSettings = SOURCE_RETRY_BACKOFF,
    private readonly random: () => number = Math.random,
  ) {
    const { initialIntervalMs, multiplier, maxIntervalMs, jitter } = settings;
    if (!(initialIntervalMs > 0) || !(multiplier >= 1) || !(maxIntervalMs >= initialIntervalMs) || !(jitter >= 0 && jitter < 1)) {
      throw new Error(`Invalid backoff settings: ${JSON.stringify(settings)}`);
    }
    this.expMax = multiplier > 1 ? Math.log(maxIntervalMs / initialIntervalMs) / Math.log(multiplier) : 0;
  }

  /** Milliseconds to wait after `attempts` consecutive failures beyond the first (0 for the first failure). */
  backoff(attempts: number): number {
    const { initialIntervalMs, multiplier, maxIntervalMs, jitter } = this.settings;
    const exp = Math.min(Math.max(attempts, 0), this.expMax);
    const term = initialIntervalMs * multiplier ** exp;
    const randomFactor = jitter > 0 ? 1 - jitter + 2 * jitter * this.random() : 1;
    return Math.min(Math.floor(randomFactor * term), maxIntervalMs);
  }
}
