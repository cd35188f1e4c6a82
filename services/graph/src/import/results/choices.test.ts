import { describe, expect, it } from 'vitest';
import { classifyChoice, personName } from './choices.js';

describe('classifyChoice', () => {
  it('keys a candidate by the name in reading order, whichever way the file writes it', () => {
    expect(classifyChoice('HARRIS, KAMALA D.')).toEqual({
      kind: 'candidate',
      key: 'kamala-d-harris',
      person: 'KAMALA D. HARRIS',
    });
    expect(classifyChoice('KAMALA D HARRIS')).toMatchObject({ kind: 'candidate', key: 'kamala-d-harris' });
    expect(classifyChoice('CHARLES H "CHUCK" NORRIS')).toMatchObject({ key: 'charles-h-chuck-norris' });
  });

  it('tells write-in aggregates from candidates, and drops counts that are not votes', () => {
    expect(classifyChoice('WRITE-IN')).toEqual({ kind: 'aggregate', key: 'write-in' });
    expect(classifyChoice('Scattering')).toEqual({ kind: 'aggregate', key: 'scattering' });
    expect(classifyChoice('UNDERVOTES')).toBeUndefined();
    expect(classifyChoice('OVERVOTES')).toBeUndefined();
  });

  it('reads ballot-question sides, and the judge of a retention row', () => {
    expect(classifyChoice('YES')).toEqual({ kind: 'yes', key: 'yes', judge: null });
    expect(classifyChoice('DINNEL - NO')).toEqual({ kind: 'no', key: 'no', judge: 'DINNEL' });
    expect(classifyChoice('OLGUIN-FRESQUEZ - YES')).toEqual({ kind: 'yes', key: 'yes', judge: 'OLGUIN-FRESQUEZ' });
  });
});

describe('personName', () => {
  it.each([
    ['HARRIS, KAMALA D.', 'KAMALA D. HARRIS'],
    ['KENNEDY, ROBERT F. JR', 'ROBERT F. KENNEDY JR'],
    ['JOHN SMITH, JR.', 'JOHN SMITH, JR.'],
    ['DE LA CRUZ, CLAUDIA', 'CLAUDIA DE LA CRUZ'],
    ['CHASE OLIVER', 'CHASE OLIVER'],
  ])('%s → %s', (raw, name) => expect(personName(raw)).toBe(name));
});
