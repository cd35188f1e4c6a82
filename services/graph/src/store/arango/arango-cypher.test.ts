import { InvalidParameterError, QueryTooComplexError, UnsupportedCypherError } from '@civicgraph/kit';
import { ArangoError } from 'arangojs/errors';
import { describe, expect, it } from 'vitest';
import { translate } from './arango-cypher.js';

const BUDGET = { rowsExamined: 1_000_000, rowsReturned: 10_000, timeMs: 10_000, memoryMb: 256 };

function arangoError(errorNum: number, errorMessage: string): ArangoError {
  return new ArangoError({ code: 400, errorNum, errorMessage });
}

describe('the ArangoDB Cypher executor reads the server’s refusals back', () => {
  it('FAIL() from the compiled query: invalid_parameter or unsupported_cypher with its message', () => {
    const invalid = translate(arangoError(1569, 'FAIL(civicgraph-invalid:Division by zero.) called'), BUDGET);
    expect(invalid).toBeInstanceOf(InvalidParameterError);
    expect((invalid as Error).message).toBe('Division by zero.');
    const unsupported = translate(
      arangoError(1569, 'FAIL(civicgraph-unsupported:comparing lists or maps nested more than three deep) called'),
      BUDGET,
    );
    expect(unsupported).toBeInstanceOf(UnsupportedCypherError);
    expect((unsupported as Error).message).toMatch(
      /^comparing lists or maps nested more than three deep is not supported/,
    );
  });

  it('the time and memory limits: query_too_complex naming the budget', () => {
    expect(translate(arangoError(1500, 'query killed'), BUDGET)).toBeInstanceOf(QueryTooComplexError);
    expect((translate(arangoError(1500, 'query killed'), BUDGET) as Error).message).toMatch(/longer than 10 s/);
    expect((translate(arangoError(32, 'resource limit exceeded'), BUDGET) as Error).message).toMatch(
      /more than 256 MB/,
    );
  });

  it('anything else as it came', () => {
    const other = arangoError(1203, 'collection or view not found');
    expect(translate(other, BUDGET)).toBe(other);
    const plain = new Error('socket hang up');
    expect(translate(plain, BUDGET)).toBe(plain);
  });
});
