/**
 * Per-address token buckets: `perMinute` requests a minute on average, bursts up to `burst`.
 * Memory is bounded: at most `maxAddresses` buckets, the least recently seen dropped first.
 */
export interface RateLimitOptions {
  readonly perMinute: number;
  /** Default: a tenth of a minute's allowance, at least 10. */
  readonly burst?: number;
  readonly maxAddresses?: number;
}

export interface RateLimiter {
  /** 0 when the request may go ahead, else the seconds to wait. */
  take(address: string, now?: number): number;
}

export function createRateLimiter(options: RateLimitOptions): RateLimiter {
  const rate = options.perMinute / 60_000;
  const burst = options.burst ?? Math.max(10, Math.ceil(options.perMinute / 10));
  const max = options.maxAddresses ?? 10_000;
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(address, now = Date.now()) {
      let bucket = buckets.get(address);
      if (bucket) {
        buckets.delete(address);
        bucket.tokens = Math.min(burst, bucket.tokens + (now - bucket.at) * rate);
        bucket.at = now;
      } else {
        bucket = { tokens: burst, at: now };
        if (buckets.size >= max) buckets.delete(buckets.keys().next().value!);
      }
      buckets.set(address, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return 0;
      }
      return Math.ceil((1 - bucket.tokens) / rate / 1000);
    },
  };
}
