import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { createGzip, constants, type Gzip } from 'node:zlib';
import { finished } from 'node:stream/promises';

/** Text collected before it is handed to the stream: one write per ~256 KB, not per row. */
const CHUNK = 256 * 1024;

/**
 * A text file written row by row with backpressure (the writer waits while the disk or
 * gzip is behind, so memory holds one chunk, not the file), optionally gzipped.
 */
export class TextFile {
  private readonly head: Gzip | WriteStream;
  private readonly file: WriteStream;
  private buffered: string[] = [];
  private bufferedLength = 0;

  constructor(path: string, gzip: boolean) {
    this.file = createWriteStream(path);
    if (gzip) {
      // Level 1: a whole-graph export is CPU-bound on compression; 1 keeps most of the
      // size gain of 6 (JSON repeats its keys on every line) at a fraction of the time.
      const gz = createGzip({ level: constants.Z_BEST_SPEED });
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

  async close(): Promise<void> {
    await this.flush();
    this.head.end();
    await finished(this.file);
  }

  /** Closes without waiting for the disk (a failed export's partial file, about to be deleted). */
  destroy(): void {
    this.head.destroy();
    this.file.destroy();
  }

  private async flush(): Promise<void> {
    if (this.buffered.length === 0) return;
    const text = this.buffered.join('');
    this.buffered = [];
    this.bufferedLength = 0;
    if (!this.head.write(text)) await once(this.head, 'drain');
  }
}
