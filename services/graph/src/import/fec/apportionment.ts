/**
 * House seats per state from the 2020 census, in force for the elections of 2022 to 2030
 * (the 118th–122nd Congresses). States with one seat elect it at large; DC and the
 * territories elect one non-voting member. Used to reject FEC rows naming districts that do
 * not exist in the cycle (`CA 53`, `MT 00` after Montana gained a second seat).
 */
const SEATS_2022: Readonly<Record<string, number>> = {
  al: 7,
  ak: 1,
  az: 9,
  ar: 4,
  ca: 52,
  co: 8,
  ct: 5,
  de: 1,
  fl: 28,
  ga: 14,
  hi: 2,
  id: 2,
  il: 17,
  in: 9,
  ia: 4,
  ks: 4,
  ky: 6,
  la: 6,
  me: 2,
  md: 8,
  ma: 9,
  mi: 13,
  mn: 8,
  ms: 4,
  mo: 8,
  mt: 2,
  ne: 3,
  nv: 4,
  nh: 2,
  nj: 12,
  nm: 3,
  ny: 26,
  nc: 14,
  nd: 1,
  oh: 15,
  ok: 5,
  or: 6,
  pa: 17,
  ri: 2,
  sc: 7,
  sd: 1,
  tn: 9,
  tx: 38,
  ut: 4,
  vt: 1,
  va: 11,
  wa: 10,
  wv: 2,
  wi: 8,
  wy: 1,
};

/** House seats a state (lowercase USPS) elects in a cycle; undefined when this table does not cover the cycle. */
export function houseSeats(usps: string, cycle: number): number | undefined {
  if (cycle < 2022 || cycle > 2030) return undefined;
  return SEATS_2022[usps] ?? 1;
}
