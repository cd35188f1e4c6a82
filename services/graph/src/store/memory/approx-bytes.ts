/**
 * The memory estimate for stats().indexBytes, without a cost on every write: documents are
 * measured on an even sample (their JSON length), scaled to the count, at two bytes per
 * JSON character — about what V8 spends once property slots and object headers are
 * counted (checked against heap growth with 200,000 candidacies; see the H1 report).
 */
const SAMPLE = 2000;

/** Estimated bytes of `count` JSON-like values, from an even sample of `values`. */
export function sampledBytes(values: Iterable<unknown>, count: number): number {
  if (count === 0) return 0;
  const stride = Math.max(1, Math.floor(count / SAMPLE));
  let seen = 0;
  let chars = 0;
  let measured = 0;
  for (const v of values) {
    if (seen++ % stride !== 0) continue;
    chars += JSON.stringify(v).length;
    measured++;
  }
  return measured === 0 ? 0 : Math.round((2 * chars * count) / measured);
}
