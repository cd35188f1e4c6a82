import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { createGzip, constants, type Gzip } from 'node:zlib';
import { finished } from 'node:stream/promises';
import { WrittenBytes, type Written } from './written.js';

/** Text collected before it is handed to the stream: one write per ~256 KB, not per row. */
const CHUNK = 256 * 1024;

/** A text file as written: its bytes on disk, and for a gzip file the length of the text it holds. */
export interface WrittenText extends Written {
  /** Bytes of text before compression (what a gzip trailer's ISIZE records, mod 2³²). */
  textBytes: number;
}

/**
 * A text file written row by row with backpressure (the writer waits while the disk or
 * gzip is behind, so memory holds one chunk, not the file), optionally gzipped. The bytes
 * that reach the file are hashed as they go, for the verifier to compare the file with.
 */
export class TextFile {
  private readonly head: Gzip | WriteStream;
  private readonly file: WriteStream;
  private readonly written = new WrittenBytes();
  private buffered: string[] = [];
  private bufferedLength = 0;
  private textBytes = 0;

  constructor(path: string, gzip: boolean) {
    this.file = createWriteStream(path);
    if (gzip) {
      // Level 1: a whole-graph export is CPU-bound on compression; 1 keeps most of the
      // size gain of 6 (JSON repeats its keys on every line) at a fraction of the time.
      const gz = createGzip({ level: constants.Z_BEST_SPEED });
      gz.on('data', (chunk: Buffer) => this.written.add(chunk));
      gz.pipe(this.file);
      this.head = gz;
    } else this.head = this.file;
  }

  /** Buffers `text`; a promise only when the chunk went to the stream and it asked to wait (backpressure). */
  write(text: string): Promise<void> | undefined {
    this.buffered.push(text);
    this.bufferedLength += text.length;
    return this.bufferedLength >= CHUNK ? this.flush() : undefined;
  }

  /** Ends the file; what was written to it. */
  async close(): Promise<WrittenText> {
    await this.flush();
    this.head.end();
    await finished(this.file);
    return { ...this.written.done(), textBytes: this.textBytes };
  }

  /** Closes without waiting for the disk (a failed export's partial file, about to be deleted). */
  destroy(): void {
    this.head.destroy();
    this.file.destroy();
  }

  private async flush(): Promise<void> {
    if (this.buffered.length === 0) return;
    const bytes = Buffer.from(this.buffered.join(''));
    this.buffered = [];
    this.bufferedLength = 0;
    this.textBytes += bytes.length;
    if (this.head === this.file) this.written.add(bytes);
    if (!this.head.write(bytes)) await once(this.head, 'drain');
  }
}
