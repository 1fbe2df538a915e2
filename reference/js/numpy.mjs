// numpy.random.default_rng(seed).permutation(n) for integer seeds
// 0 ≤ seed < 2^64: SeedSequence → PCG64 (XSL-RR 128/64) → Fisher–Yates with
// numpy's masked-rejection random_interval on buffered 32-bit halves.
//
// Seed 002 told its players that a browser cannot replay numpy's shuffle.
// It can: SeedSequence is 32-bit arithmetic, and PCG64's 128-bit LCG is a
// few BigInt operations per draw.

const INIT_A = 0x43b0d7e5;
const MULT_A = 0x931e8875;
const INIT_B = 0x8b51f9dd;
const MULT_B = 0x58f38ded;
const MIX_MULT_L = 0xca01f9dd;
const MIX_MULT_R = 0x4973f715;
const POOL_SIZE = 4;

const MASK64 = (1n << 64n) - 1n;
const MASK128 = (1n << 128n) - 1n;
const PCG_MULT = 0x2360ed051fc65da44385df649fccf645n;

/**
 * SeedSequence(seed).generate_state(4, uint64) as four BigInt u64 words.
 * All u32 products go through Math.imul: a plain `*` of two u32 Numbers can
 * exceed 2^53 and silently round.
 */
export function seedSequenceState(seed) {
  if (typeof seed !== 'bigint' || seed < 0n || seed >= 1n << 64n) {
    throw new RangeError('seed must be a BigInt in 0 … 2^64−1');
  }
  // numpy drops leading zero words, but a missing word among the first four
  // is hashed as 0 anyway, so two words padded to four give the same pool.
  const entropy = [Number(seed & 0xffffffffn), Number(seed >> 32n), 0, 0];

  let hashConst = INIT_A;
  const hashmix = (value) => {
    value = (value ^ hashConst) >>> 0;
    hashConst = Math.imul(hashConst, MULT_A) >>> 0;
    value = Math.imul(value, hashConst) >>> 0;
    return (value ^ (value >>> 16)) >>> 0;
  };
  const mix = (x, y) => {
    const r = (Math.imul(MIX_MULT_L, x) - Math.imul(MIX_MULT_R, y)) >>> 0;
    return (r ^ (r >>> 16)) >>> 0;
  };

  const pool = [];
  for (let i = 0; i < POOL_SIZE; i++) pool.push(hashmix(entropy[i]));
  for (let src = 0; src < POOL_SIZE; src++) {
    for (let dst = 0; dst < POOL_SIZE; dst++) {
      if (src !== dst) pool[dst] = mix(pool[dst], hashmix(pool[src]));
    }
  }

  // generate_state starts a fresh hash constant.
  hashConst = INIT_B;
  const words32 = [];
  for (let k = 0; k < 2 * POOL_SIZE; k++) {
    let d = (pool[k % POOL_SIZE] ^ hashConst) >>> 0;
    hashConst = Math.imul(hashConst, MULT_B) >>> 0;
    d = Math.imul(d, hashConst) >>> 0;
    words32.push((d ^ (d >>> 16)) >>> 0);
  }
  // numpy views the u32 array as little-endian u64: low word first.
  const words64 = [];
  for (let j = 0; j < 4; j++) {
    words64.push(BigInt(words32[2 * j]) | (BigInt(words32[2 * j + 1]) << 32n));
  }
  return { pool, words32, words64 };
}

/** numpy's PCG64 with its buffered 32-bit output. */
export class PCG64 {
  /** Seeded like numpy's pcg64_set_seed(initstate, initseq). */
  constructor(initstate, initseq) {
    this.inc = ((initseq << 1n) | 1n) & MASK128;
    this.state = (((this.inc + initstate) & MASK128) * PCG_MULT + this.inc) & MASK128;
    this.hasUint32 = false;
    this.uinteger = 0;
  }

  static fromSeed(seed) {
    const [w0, w1, w2, w3] = seedSequenceState(seed).words64;
    // The first word of each pair is the HIGH half.
    return new PCG64((w0 << 64n) | w1, (w2 << 64n) | w3);
  }

  /** Step the LCG, then XSL-RR the new state. */
  next64() {
    this.state = (this.state * PCG_MULT + this.inc) & MASK128;
    const hi = this.state >> 64n;
    const x = (hi ^ this.state) & MASK64;
    const rot = hi >> 58n;
    return ((x >> rot) | (x << ((64n - rot) & 63n))) & MASK64;
  }

  /** Low half first; the high half waits in a buffer for the next call. */
  next32() {
    if (this.hasUint32) {
      this.hasUint32 = false;
      return this.uinteger;
    }
    const x = this.next64();
    this.hasUint32 = true;
    this.uinteger = Number(x >> 32n);
    return Number(x & 0xffffffffn);
  }

  /** Uniform in [0, max] (inclusive) by masking and rejecting; max < 2^32 here. */
  interval(max) {
    if (max === 0) return 0;
    if (max > 0xffffffff) throw new RangeError('64-bit intervals are not needed for a deck');
    let mask = max;
    mask |= mask >>> 1;
    mask |= mask >>> 2;
    mask |= mask >>> 4;
    mask |= mask >>> 8;
    mask |= mask >>> 16;
    mask >>>= 0;
    for (;;) {
      const v = (this.next32() & mask) >>> 0;
      if (v <= max) return v;
    }
  }
}

/** numpy.random.default_rng(seed).permutation(n), seed a BigInt. */
export function permutation(seed, n) {
  const rng = PCG64.fromSeed(seed);
  const a = Array.from({ length: n }, (_, i) => i);
  // The bound is i, inclusive, not i + 1 as in the other schemes.
  for (let i = n - 1; i >= 1; i--) {
    const j = rng.interval(i);
    const t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
  return a;
}
