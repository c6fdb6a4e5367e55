import { createHash } from "node:crypto";
import seedrandom from "seedrandom";

/**
 * A seeded random source (seedrandom's ARC4 generator). The same seed string gives the same
 * sequence on every machine, so the same run seed gives the same instances byte for byte.
 */
export type Rng = {
  /** Uniform integer in [min, max] (inclusive), exact for any bigint range (rejection sampling). */
  int(min: bigint, max: bigint): bigint;
  /** Uniform element of a non-empty array. */
  pick<T>(values: readonly T[]): T;
  /** 32 random bytes as hex (for seed-derived keys and addresses). */
  bytes32(): `0x${string}`;
};

/** The instance seed (docs/TASKS.md "Sampling and instance seeds"): a hash of (run seed, task id, epoch). */
export function instanceSeed(runSeed: number | string, taskId: string, epoch = 0): string {
  return createHash("sha256").update(`questbench/${runSeed}/${taskId}/${epoch}`).digest("hex").slice(0, 32);
}

export function createRng(seed: string): Rng {
  const prng = seedrandom(seed);
  const word = () => BigInt(prng.int32() >>> 0);
  const int = (min: bigint, max: bigint): bigint => {
    if (max < min) throw new RangeError(`empty range [${min}, ${max}]`);
    const span = max - min + 1n;
    let bits = 0n;
    while (1n << bits < span) bits += 32n;
    const limit = (1n << bits) - ((1n << bits) % span);
    for (;;) {
      let draw = 0n;
      for (let b = 0n; b < bits; b += 32n) draw = (draw << 32n) | word();
      if (draw < limit) return min + (draw % span);
    }
  };
  return {
    int,
    pick: (values) => {
      if (values.length === 0) throw new RangeError("pick from an empty list");
      return values[Number(int(0n, BigInt(values.length - 1)))]!;
    },
    bytes32: () => {
      let hex = "";
      for (let i = 0; i < 8; i++) hex += word().toString(16).padStart(8, "0");
      return `0x${hex}`;
    },
  };
}
