import { describe, expect, it } from 'vitest';
import { ConfigError } from './config.js';
import { address, defineSettings, integer, settingsMarkdown, settingsText, text, word } from './settings.js';

const settings = defineSettings('demo', {
  DEMO_PORT: { type: integer(0, 65535), default: '8080', description: 'HTTP port' },
  DEMO_MODE: { type: word(['fast', 'safe'] as const), default: 'safe', description: 'how it runs' },
  DEMO_UPSTREAM: { type: address(), required: true, description: 'the upstream, `host:port`' },
  DEMO_NOTE: { type: text(), description: 'a note' },
});

const problemsOf = (env: Record<string, string>) => {
  try {
    settings.parse(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  throw new Error('parse accepted a bad environment');
};

describe('a settings schema', () => {
  it('parses typed values, with defaults for unset and empty variables and undefined for optional ones', () => {
    expect(settings.parse({ DEMO_UPSTREAM: 'geo:50051', DEMO_PORT: '' })).toEqual({
      DEMO_PORT: 8080,
      DEMO_MODE: 'safe',
      DEMO_UPSTREAM: 'geo:50051',
      DEMO_NOTE: undefined,
    });
    expect(
      settings.parse({ DEMO_UPSTREAM: 'geo:50051', DEMO_PORT: '0', DEMO_MODE: 'fast', DEMO_NOTE: 'x' }),
    ).toMatchObject({ DEMO_PORT: 0, DEMO_MODE: 'fast', DEMO_NOTE: 'x' });
  });

  it('refuses a missing required variable, naming it', () => {
    expect(problemsOf({})).toEqual([{ variable: 'DEMO_UPSTREAM', message: expect.stringMatching(/required.*unset/) }]);
    expect(() => settings.parse({})).toThrow(/^DEMO_UPSTREAM: required/);
  });

  it('refuses a malformed integer, naming the variable and the value', () => {
    expect(problemsOf({ DEMO_UPSTREAM: 'geo:50051', DEMO_PORT: 'eighty' })).toEqual([
      { variable: 'DEMO_PORT', message: expect.stringMatching(/integer.*"eighty"/) },
    ]);
    expect(problemsOf({ DEMO_UPSTREAM: 'geo:50051', DEMO_PORT: '70000' })).toEqual([
      { variable: 'DEMO_PORT', message: expect.stringMatching(/at most 65535.*"70000"/) },
    ]);
  });

  it('refuses an unknown enum value, naming the variable and the allowed words', () => {
    expect(problemsOf({ DEMO_UPSTREAM: 'geo:50051', DEMO_MODE: 'reckless' })).toEqual([
      { variable: 'DEMO_MODE', message: expect.stringMatching(/one of fast, safe.*"reckless"/) },
    ]);
  });

  it('names every bad variable in one error', () => {
    const err = (() => {
      try {
        settings.parse({ DEMO_PORT: '-1', DEMO_MODE: 'x', DEMO_UPSTREAM: 'no port here' });
      } catch (e) {
        return e as ConfigError;
      }
    })();
    expect(err?.problems.map((p) => p.variable)).toEqual(['DEMO_PORT', 'DEMO_MODE', 'DEMO_UPSTREAM']);
    expect(err?.message).toMatch(/DEMO_PORT[\s\S]*DEMO_MODE[\s\S]*DEMO_UPSTREAM: expected host:port/);
  });

  it('gives the defaults alone, parsed, without the required settings', () => {
    expect(settings.defaults()).toEqual({ DEMO_PORT: 8080, DEMO_MODE: 'safe' });
  });

  it('prints its table: variable, default (or required / unset) and description', () => {
    expect(settingsText(settings)).toMatch(/DEMO_UPSTREAM\s+required\s+the upstream/);
    expect(settingsMarkdown([settings])).toContain('| `DEMO_PORT` | `8080` | HTTP port |');
    expect(settingsMarkdown([settings])).toContain('| `DEMO_NOTE` | unset | a note |');
  });
});

describe('a sensitive setting', () => {
  const secrets = defineSettings('secrets', {
    DEMO_TOKEN: { type: integer(), sensitive: true, description: 'a token' },
  });

  it('is refused by name and length, never echoing the value', () => {
    expect(() => secrets.parse({ DEMO_TOKEN: 'hunter2' })).toThrow(
      /^DEMO_TOKEN: expected an integer, got 7 characters$/,
    );
    expect(() => secrets.parse({ DEMO_TOKEN: 'hunter2' })).not.toThrow(/hunter2/);
  });
});
