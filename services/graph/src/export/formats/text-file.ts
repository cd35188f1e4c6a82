import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { createGzip, type Gzip, type ZlibOptions } from 'node:zlib';
import type { TransformOptions } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import { WrittenBytes, type Written } from './written.js';

/** Bytes collected before they are handed to the stream: one write per 256 KB, not per row. */
const CHUNK = 256 * 1024;
/**
 * Bytes a stream holds before the writer waits for it: several chunks, so rows go on being
 * encoded while gzip and the disk take the chunks before. At the streams' default (16 KB)
 * the writer waited on every chunk.
 */
export const IN_FLIGHT = 4 * CHUNK;
/** The most UTF-8 bytes one UTF-16 code unit of a string takes. */
export const MAX_BYTES_PER_UNIT = 3;

/** A text file as written: its bytes on disk, and for a gzip file the length of the text it holds. */
export interface WrittenText extends Written {
  /** Bytes of text before compression (what a gzip trailer's ISIZE records, mod 2³²). */
  textBytes: number;
}

/**
 * A text file written row by row with backpressure (the writer waits while the disk or
 * gzip is behind, so memory holds a few chunks per stream, not the file), optionally gzipped. The bytes
 * that reach the file are hashed as they go, for the verifier to compare the file with.
 */
export class TextFile {
  private readonly head: Gzip | WriteStream;
  private readonly file: WriteStream;
  private readonly written = new WrittenBytes();
  /**
   * Settles when the file is written, or rejects with the first failure of gzip or the disk.
   * Every wait races it, so a failure ends the export (to be retried) instead of leaving it
   * waiting for a `drain` that a broken stream never sends.
   */
  private readonly done: Promise<void>;
  /** Rows are encoded straight into this chunk (no joined string, no copy); handed on when full. */
  private chunk = Buffer.allocUnsafe(CHUNK);
  private used = 0;
  private textBytes = 0;

  constructor(path: string, gzip: boolean) {
    this.file = createWriteStream(path, { highWaterMark: IN_FLIGHT });
    if (gzip) {
      // Level 2: a whole-graph export is CPU-bound; 1–2 keep most of the size gain of 6
      // (JSON repeats its keys on every line) at a third of its time. 2 looks further for
      // a match than 1: on the bench graph's NDJSON it took the same time for files 17 %
      // smaller, on lines made of FEC's candidate rows 3 % more time for 6 % smaller.
      // A zlib stream takes a stream's options too (Node hands them to Transform); its type leaves them out.
      const options: ZlibOptions & Pick<TransformOptions, 'highWaterMark'> = { level: 2, highWaterMark: IN_FLIGHT };
      const gz = createGzip(options);
      gz.on('data', (chunk: Buffer) => this.written.add(chunk));
      // pipeline, not pipe: a failing disk then fails gzip too, and gzip failing fails the file.
      this.done = pipeline(gz, this.file);
      this.head = gz;
    } else {
      this.head = this.file;
      this.done = finished(this.file);
    }
    // Reported by the next wait or by close(), never as an unhandled rejection in between.
    this.done.catch(() => undefined);
  }

  /**
   * Encodes `text` into the chunk; a promise only when a chunk went to the stream and it
   * asked to wait (backpressure). Whatever it returns, the text is already in order in the
   * file's bytes: a caller that does not wait only lets memory grow.
   */
  write(text: string): Promise<void> | undefined {
    return this.writeWith(text.length * MAX_BYTES_PER_UNIT, (chunk, at) => at + chunk.write(text, at));
  }

  /** Like `write`, for text in pieces (encoded one after another, never joined into one string). */
  writePieces(pieces: readonly string[]): Promise<void> | undefined {
    let units = 0;
    for (const piece of pieces) units += piece.length;
    return this.writeWith(units * MAX_BYTES_PER_UNIT, (chunk, at) => {
      for (const piece of pieces) at += chunk.write(piece, at);
      return at;
    });
  }

  /**
   * Like `write`, for bytes an encoder puts in place itself: `encode` writes at most `most`
   * bytes into `chunk` from `at`, and returns the offset after the last.
   */
  writeWith(most: number, encode: (chunk: Buffer, at: number) => number): Promise<void> | undefined {
    const full = most > CHUNK - this.used ? this.flush() : undefined;
    if (most > CHUNK) {
      const own = Buffer.allocUnsafe(most);
      const sent = this.send(own.subarray(0, encode(own, 0)));
      // Both waits go to the caller (the chunk before, then this text): a failure of either is its failure.
      if (full === undefined || sent === undefined) return full ?? sent;
      return Promise.all([full, sent]).then(() => undefined);
    }
    this.used = encode(this.chunk, this.used);
    return full;
  }

  /** Ends the file; what was written to it. */
  async close(): Promise<WrittenText> {
    await this.flush();
    this.head.end();
    await this.done;
    return { ...this.written.done(), textBytes: this.textBytes };
  }

  /** Closes without waiting for the disk (a failed export's partial file, about to be deleted). */
  destroy(): void {
    this.head.destroy();
    this.file.destroy();
  }

  /** Hands the chunk to the stream (a promise when the stream asks to wait). */
  private flush(): Promise<void> | undefined {
    if (this.used === 0) return undefined;
    const bytes = this.chunk.subarray(0, this.used);
    // The stream holds `bytes` until written: the next rows go into a fresh chunk.
    this.chunk = Buffer.allocUnsafe(CHUNK);
    this.used = 0;
    return this.send(bytes);
  }

  private send(bytes: Buffer): Promise<void> | undefined {
    this.textBytes += bytes.length;
    if (this.head === this.file) this.written.add(bytes);
    if (this.head.write(bytes)) return undefined;
    // A stream destroyed by a failure returns false and never drains: `done` rejects instead.
    return Promise.race([once(this.head, 'drain').then(() => undefined), this.done]);
  }
}
