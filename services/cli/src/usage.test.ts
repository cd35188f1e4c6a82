import { describe, expect, it } from 'vitest';
import { COMMAND_USAGE, commandUsage, flagOf, inFlagTerms, USAGE, VERSION } from './usage.js';

describe('usage', () => {
  it('the global usage lists every command; each command has its own', () => {
    for (const [command, text] of Object.entries(COMMAND_USAGE)) {
      expect(USAGE).toContain(text);
      expect(commandUsage(command)).toContain(`  ${command}`);
    }
    expect(VERSION).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('names a field as the flag the command has, and only then', () => {
    expect(flagOf('import', 'valid_from')).toBe('--valid-from');
    expect(flagOf('import', 'valid')).toBeUndefined();
    expect(flagOf('keys', 'plan')).toBe('--plan');
    expect(flagOf('keys', 'valid_from')).toBeUndefined();
    expect(flagOf('import', 'file')).toBeUndefined();
  });

  it('rewrites the field in the message as the flag, whole words only', () => {
    expect(inFlagTerms('import', 'valid_to', 'valid_to must follow valid_from; valid_to_x stays')).toEqual({
      name: '--valid-to',
      message: '--valid-to must follow valid_from; valid_to_x stays',
    });
    expect(inFlagTerms('import', 'file', 'file is not GeoJSON')).toEqual({
      name: 'file',
      message: 'file is not GeoJSON',
    });
  });
});
