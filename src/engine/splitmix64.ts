/**
 * SplitMix64 (Steele, Lea, Flood 2014; the seeding generator of xoshiro), on two 32-bit halves:
 * the bootstrap's row draws must be reproducible by any client bit for bit (docs/engine.md §
 * Bootstrap), and BigInt arithmetic was too slow for 1000 replicates of long windows.
 */

const GAMMA_HI = 0x9e3779b9;
const GAMMA_LO = 0x7f4a7c15;
const M1_HI = 0xbf58476d;
const M1_LO = 0x1ce4e5b9;
const M2_HI = 0x94d049bb;
const M2_LO = 0x133111eb;

/** The generator; its 64-bit state is hi·2³² + lo. */
export class SplitMix64 {
  private hi: number;
  private lo: number;
  /** Out of the last `next()`: the output's two halves. */
  outHi = 0;
  outLo = 0;

  constructor(hi: number, lo: number) {
    this.hi = hi >>> 0;
    this.lo = lo >>> 0;
  }

  /** Advances the state by the golden gamma and sets outHi/outLo to the mixed output. */
  next(): void {
    const lo = (this.lo + GAMMA_LO) >>> 0;
    this.hi = (this.hi + GAMMA_HI + (lo < this.lo ? 1 : 0)) >>> 0;
    this.lo = lo;
    let zh = this.hi;
    let zl = this.lo;
    // z = (z ^ (z >>> 30)) * M1
    zl = (zl ^ ((zl >>> 30) | (zh << 2))) >>> 0;
    zh = (zh ^ (zh >>> 30)) >>> 0;
    mul64(zh, zl, M1_HI, M1_LO);
    zh = productHi;
    zl = productLo;
    // z = (z ^ (z >>> 27)) * M2
    zl = (zl ^ ((zl >>> 27) | (zh << 5))) >>> 0;
    zh = (zh ^ (zh >>> 27)) >>> 0;
    mul64(zh, zl, M2_HI, M2_LO);
    zh = productHi;
    zl = productLo;
    // z ^ (z >>> 31)
    this.outLo = (zl ^ ((zl >>> 31) | (zh << 1))) >>> 0;
    this.outHi = (zh ^ (zh >>> 31)) >>> 0;
  }

  /** The next output as a double in [0, 1): (x >>> 11) · 2⁻⁵³, exact. */
  nextUnit(): number {
    this.next();
    return (this.outHi * 2097152 + (this.outLo >>> 11)) * 2 ** -53;
  }
}

let productHi = 0;
let productLo = 0;

/** (ah·2³² + al)·(bh·2³² + bl) mod 2⁶⁴ into productHi/productLo. */
function mul64(ah: number, al: number, bh: number, bl: number): void {
  const a0 = al & 0xffff;
  const a1 = al >>> 16;
  const b0 = bl & 0xffff;
  const b1 = bl >>> 16;
  const p00 = a0 * b0;
  const p01 = a0 * b1;
  const p10 = a1 * b0;
  const p11 = a1 * b1;
  const mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  productLo = (((mid & 0xffff) << 16) | (p00 & 0xffff)) >>> 0;
  const hi = p11 + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16);
  productHi = (hi + Math.imul(al, bh) + Math.imul(ah, bl)) >>> 0;
}
