import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium, which playwright-core drives (no browser download: the build machines have no internet but apt's mirror). */
export const CHROMIUM = process.env['CHROMIUM_BIN'] ?? '/usr/bin/chromium';

/** Where browser tests keep their screenshots (gitignored; CI keeps the folder as the run's artifacts). */
export const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));

/**
 * Chromium's path, installing Debian's package first when it is missing, so `npm test` on a
 * fresh machine (and `.ci/run`) needs no manual step. Idempotent: an installed browser is
 * used as it is. Fails loudly, saying what to run, when it cannot install (not root, no apt).
 */
export function ensureChromium(): string {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  const how = 'apt-get install -y chromium (or set CHROMIUM_BIN to a Chromium binary)';
  if (process.getuid?.() !== 0) throw new Error(`Chromium is not at ${CHROMIUM} and this is not root: run ${how}.`);
  console.warn(`[browser tests] ${CHROMIUM} is missing: installing Debian's chromium with apt-get…`);
  const apt = (args: string[]) =>
    execFileSync('apt-get', ['-o', 'DPkg::Lock::Timeout=300', ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      timeout: 15 * 60_000,
    });
  try {
    try {
      apt(['install', '-y', '--no-install-recommends', 'chromium']);
    } catch {
      // A fresh machine may not have read its package lists yet.
      apt(['update']);
      apt(['install', '-y', '--no-install-recommends', 'chromium']);
    }
  } catch (err) {
    const stderr = (err as { stderr?: Buffer }).stderr?.toString().trim().split('\n').slice(-5).join('\n') ?? '';
    throw new Error(`Could not install Chromium for the browser tests: ${how} failed.\n${stderr}`, { cause: err });
  }
  if (!existsSync(CHROMIUM)) throw new Error(`apt-get installed chromium but ${CHROMIUM} is still missing.`);
  console.warn(`[browser tests] installed ${CHROMIUM}`);
  return CHROMIUM;
}

/** A headless Chromium (installed first if need be). */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: ensureChromium(),
    headless: true,
    // Root has no user namespace sandbox in containers; the pages are our own.
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
}

/** A path for a screenshot under test-artifacts/<suite>/ (the folder is made as needed). */
export function artifact(suite: string, name: string): string {
  const dir = join(ARTIFACTS, suite);
  mkdirSync(dir, { recursive: true });
  return join(dir, name);
}
