import type { Cell } from '../columns.js';
import { MAX_BYTES_PER_UNIT } from './text-file.js';

const QUOTE = 0x22;
const COMMA = 0x2c;
const CR = 0x0d;
const LF = 0x0a;

/** A field's UTF-8 bytes before quoting (one buffer, reused; a larger field gets its own). */
let scratch = Buffer.allocUnsafe(64 * 1024);

/** The most bytes `encodeCsvRow` writes for `cells`: every byte of text doubled, quotes and separators. */
export function csvRowBound(cells: readonly Cell[]): number {
  let most = 2;
  for (const cell of cells) most += typeof cell === 'string' ? cell.length * MAX_BYTES_PER_UNIT + 3 : 32;
  return most;
}

/**
 * A CSV row (RFC 4180, what `csvField` makes of each cell, joined by commas, CRLF at the
 * end) encoded straight into `out` from `at`; the offset after it. Quotes are doubled in
 * the UTF-8 bytes (a quote byte is never part of a longer character): doubling them in the
 * string first took more time than the rest of the row's writing.
 */
export function encodeCsvRow(cells: readonly Cell[], out: Buffer, at: number): number {
  for (let i = 0; i < cells.length; i++) {
    if (i > 0) out[at++] = COMMA;
    const cell = cells[i]!;
    if (cell !== null) at = encodeField(typeof cell === 'string' ? cell : String(cell), out, at);
  }
  out[at++] = CR;
  out[at++] = LF;
  return at;
}

/** What makes a field quoted. */
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One field. Without a quote, comma or line break (most short fields), its bytes as they are;
 * with no quote, quoted; else copied one place on, quotes doubled, and quoted.
 */
function encodeField(text: string, out: Buffer, at: number): number {
  if (!NEEDS_QUOTES.test(text)) return at + out.write(text, at);
  if (!text.includes('"')) {
    out[at] = QUOTE;
    const to = at + 1 + out.write(text, at + 1);
    out[to] = QUOTE;
    return to + 1;
  }
  if (text.length * MAX_BYTES_PER_UNIT > scratch.length) scratch = Buffer.allocUnsafe(text.length * MAX_BYTES_PER_UNIT);
  const n = scratch.write(text, 0);
  let to = at + 1;
  for (let i = 0; i < n; i++) {
    const b = scratch[i]!;
    out[to++] = b;
    if (b === QUOTE) out[to++] = QUOTE;
  }
  out[at] = QUOTE;
  out[to++] = QUOTE;
  return to;
}
