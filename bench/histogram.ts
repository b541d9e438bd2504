/**
 * A latency histogram with log-spaced buckets 1% wide, from 1 µs to ~100 s: constant memory
 * whatever the request count, percentiles within 1%, and histograms of several runs merge.
 */
const GROWTH = 1.01;
const LOG_GROWTH = Math.log(GROWTH);
const BUCKETS = Math.ceil(Math.log(100e6) / LOG_GROWTH) + 1;

export class Histogram {
  private readonly counts = new Uint32Array(BUCKETS);
  count = 0;
  private sumMicros = 0;
  private minMicros = Number.POSITIVE_INFINITY;
  private maxMicros = 0;

  recordMs(ms: number): void {
    const micros = Math.max(1, ms * 1000);
    const index = Math.min(BUCKETS - 1, Math.ceil(Math.log(micros) / LOG_GROWTH));
    this.counts[index] = (this.counts[index] ?? 0) + 1;
    this.count += 1;
    this.sumMicros += micros;
    if (micros < this.minMicros) this.minMicros = micros;
    if (micros > this.maxMicros) this.maxMicros = micros;
  }

  merge(other: Histogram): void {
    for (let index = 0; index < BUCKETS; index += 1) this.counts[index] = (this.counts[index] ?? 0) + (other.counts[index] ?? 0);
    this.count += other.count;
    this.sumMicros += other.sumMicros;
    this.minMicros = Math.min(this.minMicros, other.minMicros);
    this.maxMicros = Math.max(this.maxMicros, other.maxMicros);
  }

  /** The latency (ms) at or below which `fraction` of the samples fall; NaN when empty. */
  percentileMs(fraction: number): number {
    if (this.count === 0) return Number.NaN;
    const rank = Math.max(1, Math.ceil(fraction * this.count));
    let seen = 0;
    for (let index = 0; index < BUCKETS; index += 1) {
      seen += this.counts[index] ?? 0;
      if (seen >= rank) return Math.min(this.maxMicros, Math.max(this.minMicros, GROWTH ** index)) / 1000;
    }
    return this.maxMicros / 1000;
  }

  meanMs(): number {
    return this.count === 0 ? Number.NaN : this.sumMicros / this.count / 1000;
  }

  maxMs(): number {
    return this.count === 0 ? Number.NaN : this.maxMicros / 1000;
  }
}
