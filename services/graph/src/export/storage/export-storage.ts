/**
 * Where export files live once published (the ExportStorage port): the local filesystem by
 * default, an S3-compatible bucket for clusters. Files are built in a local staging folder
 * and only `publish`ed once whole and verified, so a reader never sees a partial file.
 */
export interface ExportStorage {
  /** The local folder to build an export's files in (created empty; a previous attempt's leftovers are gone). */
  stage(exportId: string): Promise<string>;
  /** Makes a verified staged file readable as `name` of the export, whole or not at all. */
  publish(exportId: string, name: string, stagedPath: string): Promise<void>;
  /** The size of a published file; undefined when there is none. */
  size(exportId: string, name: string): Promise<number | undefined>;
  /** Bytes `[offset, offset + length)` of a published file (fewer at its end). */
  read(exportId: string, name: string, offset: number, length: number): Promise<Uint8Array>;
  /** Removes what was staged for an export (after it is published, or when an attempt fails). */
  unstage(exportId: string): Promise<void>;
}
