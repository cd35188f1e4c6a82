import { describe, expect, it } from 'vitest';
import { fecName } from './names.js';

describe('fecName', () => {
  it.each([
    ['DEGETTE, DIANA L', 'Diana L Degette', 'Diana L', 'Degette'],
    ['TRUONO, EUGENE (GENE) J JR', 'Eugene J Truono Jr.', 'Eugene J', 'Truono'],
    ['TROUT, W. MICHAEL "MIKE"', 'W. Michael Trout', 'W. Michael', 'Trout'],
    ["O'DEA, JOSEPH MATTHEW", "Joseph Matthew O'Dea", 'Joseph Matthew', "O'Dea"],
    ['MCBRIDE, WILLIAM', 'William McBride', 'William', 'McBride'],
    ['SCOTT, RICK SEN', 'Rick Scott', 'Rick', 'Scott'],
    ['KENNEDY, SANDRA (SANDY) DENISE MS. ESQ', 'Sandra Denise Kennedy', 'Sandra Denise', 'Kennedy'],
    ['PETERS, ALVIN JOHN 3205946498', 'Alvin John Peters', 'Alvin John', 'Peters'],
    ['HOGGATT, "HOLDEN"', 'Holden Hoggatt', 'Holden', 'Hoggatt'],
    ['MCMULLIN, EVAN / MINDY FINN', 'Evan McMullin', 'Evan', 'McMullin'],
    ['KENNEDY, ROBERT, F. JR., SHANAHAN, NICOLE', 'Robert F. Kennedy Jr.', 'Robert F.', 'Kennedy'],
    ['MONTELEONE, MONTE, EUGENE, GEE T MR.', 'Monte Eugene Gee T Monteleone', 'Monte Eugene Gee T', 'Monteleone'],
    ['RUSZKOWSKI ( RUSH ), ROB', 'Rob Ruszkowski', 'Rob', 'Ruszkowski'],
    ['WIEDENFELD-NEEDHAM, BORIS "BO"', 'Boris Wiedenfeld-Needham', 'Boris', 'Wiedenfeld-Needham'],
    ['PIERCE, MICHAEL DAVID LTC (RET.)', 'Michael David Pierce', 'Michael David', 'Pierce'],
    ['CHER', 'Cher', null, 'Cher'],
  ])('%s → %s', (raw, display, given, family) => {
    expect(fecName(raw)).toEqual({ display, given, family });
  });
});
