import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readmeWithSettings } from './settings-docs.js';

const README = fileURLToPath(new URL('../../../README.md', import.meta.url));

describe('the README settings section', () => {
  it('is the one the settings schemas generate (node scripts/gen-settings-docs.mjs rewrites it)', () => {
    const readme = readFileSync(README, 'utf8');
    expect(readme, 'README.md settings are stale: run npm run build && node scripts/gen-settings-docs.mjs').toBe(
      readmeWithSettings(readme),
    );
  });
});
