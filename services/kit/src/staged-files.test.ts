import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidParameterError } from './errors.js';
import { safeRelativePath, topLevelNames, withStagedFiles } from './staged-files.js';

const file = (path: string, text = path) => ({ path, content: Buffer.from(text) });

describe('withStagedFiles', () => {
  it('writes a folder tree where work reads it, and removes it afterwards', async () => {
    let seen = '';
    const text = await withStagedFiles(
      [file('people/co/a.yml', 'name: A'), file('people/de/b.yml')],
      'files',
      async (dir) => {
        seen = dir;
        return readFileSync(join(dir, 'people/co/a.yml'), 'utf8');
      },
    );
    expect(text).toBe('name: A');
    expect(existsSync(seen)).toBe(false);
  });

  it('removes the folder when work fails, and passes the failure on', async () => {
    let seen = '';
    await expect(
      withStagedFiles([file('a.csv')], 'files', async (dir) => {
        seen = dir;
        throw new Error('importer refused');
      }),
    ).rejects.toThrow('importer refused');
    expect(seen).not.toBe('');
    expect(existsSync(seen)).toBe(false);
  });

  it('refuses no files, a path sent twice, and a path that leaves the folder, naming the field', async () => {
    const refusal = (files: ReturnType<typeof file>[]) =>
      withStagedFiles(files, 'files', () => Promise.resolve()).catch((e: InvalidParameterError) => e.field);
    expect(await refusal([])).toBe('files');
    expect(await refusal([file('a.csv'), file('a.csv')])).toBe('files');
    expect(await refusal([file('a.csv'), file('x/../../etc/passwd')])).toBe('files[1].path');
  });
});

describe('safeRelativePath', () => {
  it('keeps a relative path and refuses absolute, empty, dotted and backslashed ones', () => {
    expect(safeRelativePath('country-us/states.csv', 'path')).toBe('country-us/states.csv');
    for (const bad of ['', '/etc/passwd', '../up', 'a/./b', 'a//b', 'a\\b', 'a/'])
      expect(() => safeRelativePath(bad, 'path'), bad).toThrow(InvalidParameterError);
  });
});

describe('topLevelNames', () => {
  it('names each top-level file or folder once, in order', () => {
    expect(topLevelNames([file('tiger/a.shp'), file('tiger/a.dbf'), file('us.geojson')])).toEqual([
      'tiger',
      'us.geojson',
    ]);
  });
});
