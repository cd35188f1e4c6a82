import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExportStorage } from './export-storage.js';

/**
 * Export files on the local filesystem: published files at `<root>/<export>/<name>`, staged
 * ones under `<root>/.staging/<export>/`. Publishing is a rename within one filesystem, which
 * is atomic: a reader finds the whole file or none.
 */
export class FsExportStorage implements ExportStorage {
  constructor(private readonly root: string) {}

  async stage(exportId: string): Promise<string> {
    const dir = this.stagingDir(exportId);
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    return dir;
  }

  async publish(exportId: string, name: string, stagedPath: string): Promise<void> {
    const dir = join(this.root, exportId);
    await mkdir(dir, { recursive: true });
    await rename(stagedPath, join(dir, name));
  }

  async size(exportId: string, name: string): Promise<number | undefined> {
    try {
      return (await stat(join(this.root, exportId, name))).size;
    } catch {
      return undefined;
    }
  }

  async read(exportId: string, name: string, offset: number, length: number): Promise<Uint8Array> {
    const file = await open(join(this.root, exportId, name), 'r');
    try {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await file.read(buffer, 0, length, offset);
      return buffer.subarray(0, bytesRead);
    } finally {
      await file.close();
    }
  }

  async unstage(exportId: string): Promise<void> {
    await rm(this.stagingDir(exportId), { recursive: true, force: true });
  }

  private stagingDir(exportId: string): string {
    return join(this.root, '.staging', exportId);
  }
}
