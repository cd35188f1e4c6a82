import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { findState, type StateInfo } from '@civicgraph/kit';
import { ImportFileError } from '../shared/errors.js';

/** The folders of an Open States state folder (`data/co/` of openstates/people) that hold people, one YAML file each. */
export const PEOPLE_FOLDERS = ['legislature', 'executive', 'municipalities'] as const;

/** One person's file. */
export interface PersonFile {
  path: string;
  /** Where it is, for rejections: `co/legislature/Adrienne-Benavidez-….yml`. */
  label: string;
  /** The state of the folder it is in. */
  state: StateInfo;
}

/**
 * The person files under `path`: one state folder (`…/openstates-people/co`) or a folder
 * of state folders (`…/openstates-people`, openstates/people's `data/`), states in
 * alphabetical order, files by name. `committees/` and `retired/` are not read. A path
 * that is neither is an ImportFileError saying what was expected.
 */
export function personFiles(path: string): PersonFile[] {
  if (!existsSync(path)) throw new ImportFileError(path, 0, 'no such folder');
  if (!statSync(path).isDirectory())
    throw new ImportFileError(
      path,
      0,
      'not a folder: name a state folder (such as …/openstates-people/co) or the folder of state folders',
    );
  const folders = isStateFolder(path) ? [path] : subfolders(path).filter(isStateFolder);
  if (folders.length === 0)
    throw new ImportFileError(path, 0, `no Open States state folder here (one holding ${PEOPLE_FOLDERS.join('/, ')}/)`);
  return folders.flatMap(filesOfState);
}

function isStateFolder(dir: string): boolean {
  return PEOPLE_FOLDERS.some((f) => isFolder(join(dir, f)));
}

function filesOfState(dir: string): PersonFile[] {
  const name = basename(dir);
  const state = /^[a-z]{2}$/.test(name) ? findState(name) : undefined;
  if (state === undefined)
    throw new ImportFileError(
      dir,
      0,
      `folder "${name}" holds Open States people but is not named by a state's lowercase USPS code (co, de, …)`,
    );
  return PEOPLE_FOLDERS.filter((f) => isFolder(join(dir, f))).flatMap((f) =>
    readdirSync(join(dir, f))
      .filter((file) => /\.ya?ml$/i.test(file))
      .sort()
      .map((file) => ({ path: join(dir, f, file), label: `${name}/${f}/${file}`, state })),
  );
}

function subfolders(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .map((n) => join(dir, n))
    .filter(isFolder);
}

function isFolder(p: string): boolean {
  return existsSync(p) && statSync(p).isDirectory();
}
