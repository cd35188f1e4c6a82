/**
 * Exact planar orientation: the sign of (b − a) × (p − a), i.e. +1 when p lies strictly to
 * the left of the directed line a→b, −1 strictly to the right, 0 exactly on it.
 *
 * The floating-point determinant is trusted when it clears Shewchuk's error bound for
 * orient2d; otherwise (points within a few ulps of the line) the determinant is recomputed
 * exactly from the doubles' binary values with BigInt, so the answer is never a rounding
 * artefact. That exactness is what lets two polygons sharing an edge agree on which side
 * every point is.
 */
export function orient(ax: number, ay: number, bx: number, by: number, px: number, py: number): number {
  const detLeft = (ax - px) * (by - py);
  const detRight = (ay - py) * (bx - px);
  const det = detLeft - detRight;
  let detSum: number;
  if (detLeft > 0) {
    if (detRight <= 0) return Math.sign(det);
    detSum = detLeft + detRight;
  } else if (detLeft < 0) {
    if (detRight >= 0) return Math.sign(det);
    detSum = -detLeft - detRight;
  } else {
    return Math.sign(det);
  }
  if (Math.abs(det) >= CCW_ERR_BOUND_A * detSum) return Math.sign(det);
  return orientExact(ax, ay, bx, by, px, py);
}

/** Shewchuk's ccwerrboundA = (3 + 16ε)ε with ε = 2⁻⁵³. */
const CCW_ERR_BOUND_A = (3 + 16 * 2 ** -53) * 2 ** -53;

const f64 = new Float64Array(1);
const u64 = new BigUint64Array(f64.buffer);

/** A finite double as mantissa × 2^exponent, both exact. */
function decompose(d: number): { m: bigint; e: number } {
  f64[0] = d;
  const bits = u64[0]!;
  const biased = Number((bits >> 52n) & 0x7ffn);
  let m = bits & 0xfffffffffffffn;
  if (biased !== 0) m |= 1n << 52n;
  const e = biased === 0 ? -1074 : biased - 1075;
  return { m: bits >> 63n ? -m : m, e };
}

/** The same sign as `orient`, computed with exact integer arithmetic. */
export function orientExact(ax: number, ay: number, bx: number, by: number, px: number, py: number): number {
  const parts = [ax, ay, bx, by, px, py].map(decompose);
  const minE = Math.min(...parts.map((p) => p.e));
  const [iax, iay, ibx, iby, ipx, ipy] = parts.map((p) => p.m << BigInt(p.e - minE)) as [
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
  ];
  const det = (iax - ipx) * (iby - ipy) - (iay - ipy) * (ibx - ipx);
  return det > 0n ? 1 : det < 0n ? -1 : 0;
}
