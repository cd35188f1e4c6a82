import { describe, expect, it } from 'vitest';
import { EMPTY_SHA256, signV4 } from './sigv4.js';

/**
 * The signer against AWS's own worked example (Amazon S3 API Reference, "Signature
 * Calculations for the Authorization Header", Example: GET Object): the same request must
 * give the documented signature, byte for byte.
 */
describe('signV4', () => {
  it("gives AWS's documented signature for its GET Object example", () => {
    const headers = signV4(
      {
        accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
        secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
        region: 'us-east-1',
      },
      {
        method: 'GET',
        url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'),
        headers: { Range: 'bytes=0-9' },
        payloadHash: EMPTY_SHA256,
      },
      new Date('2013-05-24T00:00:00Z'),
    );
    expect(headers['authorization']).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
  });
});
