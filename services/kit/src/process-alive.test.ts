import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { processAlive } from './process-alive.js';

describe('processAlive', () => {
  it('is true for a running process and false for one that has exited', () => {
    expect(processAlive(process.pid)).toBe(true);
    const child = spawnSync(process.execPath, ['-e', '0']);
    expect(child.status).toBe(0);
    expect(processAlive(child.pid!)).toBe(false);
  });
});
