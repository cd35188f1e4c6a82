import { describe, expect, test } from 'vitest';
import { subjectMatches } from './event-bus.js';

describe('subjectMatches', () => {
  test.each([
    ['civic.live.region.created', 'civic.live.region.created', true],
    ['civic.live.region.created', 'civic.live.region.updated', false],
    ['civic.*.region.created', 'civic.test.region.created', true],
    ['civic.live.*', 'civic.live.region.created', false],
    ['civic.live.>', 'civic.live.region.created', true],
    ['civic.live.>', 'civic.live', false],
    ['civic.live.region.created.x', 'civic.live.region.created', false],
  ])('filter %s against %s is %s', (filter, subject, expected) => {
    expect(subjectMatches(filter, subject)).toBe(expected);
  });
});
