import { afterEach, describe, expect, it } from 'vitest';
import { ImportFileError } from './errors.js';
import { readTextFile } from './text-file.js';
import { fixtureDir } from './test-files.js';

const fx = fixtureDir();
afterEach(() => fx.cleanup());

describe('readTextFile', () => {
  it('names the line of the first byte that is not UTF-8 (a Latin-1 file)', async () => {
    const path = fx.write(
      'latin1.txt',
      Buffer.concat([Buffer.from('a|b\nc|d\nMU'), Buffer.from([0xd1]), Buffer.from('OZ, ANA|x\n')]),
    );
    const error = await readTextFile(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportFileError);
    expect(error).toMatchObject({ line: 3, file: path });
    expect((error as Error).message).toMatch(/latin1\.txt line 3: byte 0xD1 is not UTF-8/);
  });

  it('reads the same bytes when the file is declared Latin-1', async () => {
    const path = fx.write('latin1.txt', Buffer.concat([Buffer.from('MU'), Buffer.from([0xd1]), Buffer.from('OZ')]));
    expect((await readTextFile(path, 'latin1')).text).toBe('MUÑOZ');
  });

  it('drops a byte-order mark and keeps real multi-byte UTF-8', async () => {
    const path = fx.write('bom.csv', '\uFEFFid,name\nx,Doña Ana\n');
    expect((await readTextFile(path)).text).toBe('id,name\nx,Doña Ana\n');
  });

  it('refuses an empty file and a missing one with a typed error', async () => {
    await expect(readTextFile(fx.write('empty.csv', ''))).rejects.toThrow(/empty\.csv: the file is empty/);
    await expect(readTextFile(`${fx.dir}/nope.csv`)).rejects.toThrow(/cannot read the file \(ENOENT\)/);
  });

  it("does not report the file's modification time: it is not the source's date", async () => {
    const file = await readTextFile(fx.write('a.csv', 'x\n'));
    expect(Object.keys(file).sort()).toEqual(['path', 'text']);
  });
});
