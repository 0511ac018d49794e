/** Seeded PRNG (mulberry32): the same seed gives the same member ids and the same run. */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    if (!Number.isFinite(seed)) {
      throw new Error(`Random seed must be a finite number, got ${seed}`);
    }
    this.state = Math.floor(seed) >>> 0;
  }

  /** Uniform float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [0, bound). */
  nextInt(bound: number): number {
    return Math.floor(this.next() * bound);
  }

  /** A version-4-shaped UUID string, as Kafka's member ids carry. */
  uuid(): string {
    const hex: string[] = [];
    for (let i = 0; i < 4; i++) {
      hex.push((Math.floor(this.next() * 0x100000000) >>> 0).toString(16).padStart(8, '0'));
    }
    const h = hex.join('');
    const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
}
