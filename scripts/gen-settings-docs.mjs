#!/usr/bin/env node
// Rewrites the README's settings section from the services' settings schemas (each
// service's config.ts), so the table cannot drift from what the processes read.
// services/cli/src/settings-docs.test.ts fails while it is stale.
//
//   npm run build && node scripts/gen-settings-docs.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readmeWithSettings } from '../services/cli/dist/settings-docs.js';

const README = fileURLToPath(new URL('../README.md', import.meta.url));
const before = readFileSync(README, 'utf8');
const after = readmeWithSettings(before);
if (after === before) console.log('README settings are up to date.');
else {
  writeFileSync(README, after);
  console.log(`rewrote the settings section of ${README}`);
}
