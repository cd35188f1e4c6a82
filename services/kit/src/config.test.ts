import { describe, expect, it } from 'vitest';
import { bool, ConfigError, int, list, oneOf, str } from './config.js';

describe('config readers', () => {
  it('use the default beside the variable when it is unset or empty', () => {
    expect(int({}, 'PORT', 8080)).toBe(8080);
    expect(str({ HOST: '' }, 'HOST', '127.0.0.1')).toBe('127.0.0.1');
    expect(list({}, 'GEO_FILES')).toEqual([]);
  });

  it('fail naming the variable when a value is malformed', () => {
    expect(() => int({ PORT: 'eighty' }, 'PORT', 8080)).toThrow(ConfigError);
    expect(() => int({ PORT: '70000' }, 'PORT', 8080, 0, 65535)).toThrow(/PORT/);
    expect(() => oneOf({ CIVIC_ENV: 'prod' }, 'CIVIC_ENV', ['test', 'live'], 'test')).toThrow(/CIVIC_ENV.*prod/);
    expect(() => bool({ X: 'maybe' }, 'X', false)).toThrow(/X/);
  });

  it('split lists on commas and trim them', () => {
    expect(list({ L: ' a, b ,,c ' }, 'L')).toEqual(['a', 'b', 'c']);
  });
});
