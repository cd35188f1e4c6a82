import { PassThrough } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createLogger, loggerOptions, readable } from './log.js';

const KEY = `cg_live_${'Ab3'.repeat(13)}x`;

function capture(): { lines: string[]; stream: { write(s: string): void } } {
  const lines: string[] = [];
  return { lines, stream: { write: (s: string) => void lines.push(s) } };
}

describe('createLogger', () => {
  it('censors key, secret and authorization fields', () => {
    const { lines, stream } = capture();
    const log = createLogger('t', 'info', stream);
    log.info({ key: KEY, secret: 's3cret', req: { headers: { authorization: `Bearer ${KEY}` } } }, 'fields');
    expect(lines.join('')).not.toContain(KEY.slice(8));
    expect(lines.join('')).not.toContain('s3cret');
    expect(JSON.parse(lines[0]!)).toMatchObject({
      key: '[redacted]',
      secret: '[redacted]',
      req: { headers: { authorization: '[redacted]' } },
    });
  });

  it('cuts a key out of messages, errors and URLs wherever it appears', () => {
    const { lines, stream } = capture();
    const log = createLogger('t', 'info', stream);
    log.info(`asked with ${KEY}`);
    log.error({ err: new Error(`bad key ${KEY}`), url: `/v1/ballot?api_key=${KEY}` }, 'failed');
    const text = lines.join('');
    expect(text).not.toContain(KEY.slice(8));
    expect(text).toContain('cg_live_[redacted]');
    expect(lines).toHaveLength(2);
  });

  it('writes human-readable lines for a terminal, still without keys', () => {
    const out = new PassThrough();
    const chunks: string[] = [];
    out.on('data', (c: Buffer) => chunks.push(c.toString()));
    const log = pino(loggerOptions('geo', 'info'), readable(out));
    log.info({ regions: 3287, key: KEY }, `boundaries loaded for ${KEY}`);
    const line = chunks.join('');
    expect(line).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO \(geo\): boundaries loaded for cg_live_\[redacted\]\n/);
    expect(line).toContain('regions: 3287');
    expect(line).not.toContain(KEY.slice(8));
    expect(line).not.toContain('{"level"');
  });
});
