import { createHash, type Hash } from 'node:crypto';

/** What a writer handed to the disk: the file's size and SHA-256, to check the file against. */
export interface Written {
  bytes: number;
  sha256: string;
}

/** Counts and hashes a file's bytes as they are written (the verifier reads them back and compares). */
export class WrittenBytes {
  private readonly hash: Hash = createHash('sha256');
  private bytes = 0;

  add(chunk: Uint8Array): void {
    this.hash.update(chunk);
    this.bytes += chunk.length;
  }

  done(): Written {
    return { bytes: this.bytes, sha256: this.hash.digest('hex') };
  }
}
