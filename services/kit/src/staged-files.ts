import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { InvalidParameterError } from './errors.js';

/**
 * The largest import request (one source's files in one unary call), on the import RPCs'
 * servers and on the ingest service's clients. The largest source the registry stages is
 * the full-resolution TIGER congressional map (tiger2022-cd): about 50 MB of shapefiles
 * from a mirror (shared/data's boundaries folder is 62 MB in all), less as the Census's
 * zips; Open States' whole-repository archive is smaller. 256 MiB leaves room for those to
 * grow several times over while still refusing a runaway request before it fills memory.
 */
export const IMPORT_MESSAGE_BYTES = 256 * 1024 * 1024;

/** A file of a source as it travels to an import RPC: its relative path and its bytes. */
export interface StagedFileContent {
  path: string;
  content: Uint8Array;
}

/**
 * A relative path that stays inside the folder it is written to: `/`-separated, no empty,
 * `.` or `..` segment, no `\`. Anything else is refused naming `field`.
 */
export function safeRelativePath(path: string, field: string): string {
  const segments = path.split('/');
  if (
    path === '' ||
    path.includes('\\') ||
    path.includes('\0') ||
    segments.some((s) => s === '' || s === '.' || s === '..')
  ) {
    throw new InvalidParameterError(
      field,
      `"${path}" is not a relative path inside the source's folder (segments separated by /, none empty, . or ..).`,
    );
  }
  return path;
}

/**
 * Writes `files` into a temporary folder of this process, runs `work` on it and removes it,
 * whatever `work` did. `field` names the request field in errors (`files[2].path`).
 */
export async function withStagedFiles<T>(
  files: readonly StagedFileContent[],
  field: string,
  work: (dir: string) => Promise<T>,
): Promise<T> {
  if (files.length === 0) throw new InvalidParameterError(field, 'Send at least one file.');
  const paths = files.map((f, i) => safeRelativePath(f.path, `${field}[${i}].path`));
  const twice = paths.find((p, i) => paths.indexOf(p) !== i);
  if (twice !== undefined) throw new InvalidParameterError(field, `"${twice}" is sent twice.`);
  const dir = await mkdtemp(join(tmpdir(), 'civic-import-'));
  try {
    for (const [i, file] of files.entries()) {
      await mkdir(dirname(join(dir, paths[i]!)), { recursive: true });
      await writeFile(join(dir, paths[i]!), file.content);
    }
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The distinct first segments of `files`' paths (a file's own name, or its top folder's), in order of first appearance. */
export function topLevelNames(files: readonly StagedFileContent[]): string[] {
  return [...new Set(files.map((f) => f.path.split('/')[0]!))];
}
