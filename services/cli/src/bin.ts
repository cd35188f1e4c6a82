#!/usr/bin/env node
import { COMMAND_USAGE, commandUsage, inFlagTerms, USAGE, VERSION } from './usage.js';

/**
 * `civicgraph`. Each command's code is loaded only when it runs, so `--help`, `--version`
 * and the commands that need no services do not pay for loading every service.
 */
async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(USAGE);
    return;
  }
  if (command === '--version' || command === '-v' || command === 'version' || rest.includes('--version')) {
    process.stdout.write(`civicgraph ${VERSION}\n`);
    return;
  }
  if (!Object.hasOwn(COMMAND_USAGE, command)) {
    process.stderr.write(`civicgraph: no command "${command}"\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(commandUsage(command));
    return;
  }
  process.stdout.write(await run(command, rest));
}

/** Runs a command; resolves with what it prints. */
async function run(command: string, args: string[]): Promise<string> {
  const { readCliConfig, cliSettings } = await import('./config.js');
  if (command === 'settings') {
    const { settingsText } = await import('@civicgraph/kit');
    const { SERVICE_SETTINGS } = await import('@civicgraph/stack');
    return [cliSettings, ...SERVICE_SETTINGS].map(settingsText).join('\n');
  }
  const config = readCliConfig();
  if (command === 'up') return upCommand(config, args);
  if (command === 'import') return `${await (await import('./commands/import.js')).importCommand(config, args)}\n`;
  if (command === 'sources') return `${await (await import('./commands/sources.js')).sources(config, args)}\n`;
  if (command === 'export') return `${await (await import('./commands/export.js')).exportCommand(config, args)}\n`;
  return `${await (await import('./commands/keys.js')).keys(config, args)}\n`;
}

async function upCommand(config: import('./config.js').CliConfig, args: string[]): Promise<string> {
  const { parseArgs } = await import('node:util');
  const { createLogger, exitOnSignals, Lifecycle, SHUTDOWN_FUSE_MS } = await import('@civicgraph/kit');
  const { banner, up } = await import('./commands/up.js');
  const { values } = parseArgs({ args, options: { demo: { type: 'boolean', default: false } } });
  // Logs go to stderr so stdout carries only the banner.
  const log = createLogger('civicgraph', config.logLevel, 2);
  const lifecycle = new Lifecycle(log);
  exitOnSignals(lifecycle, log, SHUTDOWN_FUSE_MS);
  try {
    return banner(await up(config, lifecycle, log, { demo: values.demo }));
  } catch (err) {
    await lifecycle.stop('start failed');
    throw err;
  }
}

/** One line naming what to change: the flag (or setting) and why; usage after a malformed command line. */
async function report(command: string | undefined, err: unknown): Promise<void> {
  const { CivicError, ConfigError } = await import('@civicgraph/kit');
  if (err instanceof CivicError) {
    if (err.field === undefined) process.stderr.write(`civicgraph: ${err.message}\n`);
    else {
      const named = inFlagTerms(command ?? '', err.field, err.message);
      process.stderr.write(`civicgraph: ${named.name}: ${named.message}\n`);
    }
  } else if (err instanceof ConfigError) process.stderr.write(`civicgraph: ${err.message}\n`);
  else if (err instanceof TypeError && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS'))
    process.stderr.write(`civicgraph: ${err.message}\n${command === undefined ? USAGE : commandUsage(command)}`);
  else process.stderr.write(`civicgraph: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
}

const argv = process.argv.slice(2);
main(argv).catch(async (err: unknown) => {
  await report(argv[0], err);
  process.exit(2);
});
