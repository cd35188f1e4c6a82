import { describe, expect, it } from 'vitest';
import { serveLater } from './ingest.js';
import { SOURCES } from './registry.js';

describe('serveLater: which maps of a pass geo may serve with the last', () => {
  it('is every boundary source of the pass but its last, and no other kind of source', () => {
    const maps = SOURCES.filter((s) => s.import.kind === 'boundaries').map((s) => s.id);
    expect(maps.length).toBeGreaterThan(2);
    expect([...serveLater(SOURCES)]).toEqual(maps.slice(0, -1));
  });

  it('is empty for a pass of one map, or of none', () => {
    const oneMap = SOURCES.filter((s) => s.import.kind !== 'boundaries' || s.id === 'cd119-20m');
    expect(serveLater(oneMap).size).toBe(0);
    expect(serveLater(SOURCES.filter((s) => s.import.kind !== 'boundaries')).size).toBe(0);
  });
});
