export { readCliConfig, type CliConfig } from './config.js';
export { up, banner, SANDBOX_LABEL, type Running } from './commands/up.js';
export { keys, createRequest } from './commands/keys.js';
