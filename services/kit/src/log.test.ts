import { describe, expect, it } from 'vitest';
import { createLogger } from './log.js';

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
});
