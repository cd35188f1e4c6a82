import { describe, expect, it } from 'vitest';
import { displayName } from './candidacy-drafts.js';

describe("a certified candidate's name as the ballot prints it", () => {
  it.each([
    ['LISA BLUNT ROCHESTER', 'Lisa Blunt Rochester'],
    ['SARAH MCBRIDE', 'Sarah McBride'],
    ["CHRISTINE O'DONNELL", "Christine O'Donnell"],
    ['JOHN J WHALEN III', 'John J Whalen III'],
    ['MICHAEL "DR MIKE" KATZ', 'Michael "Dr Mike" Katz'],
    ['JEAN-PAUL SMITH', 'Jean-Paul Smith'],
    ['CHERUNDA FOX/HARLAN MCVAY', 'Cherunda Fox/Harlan McVay'],
    ['CORNEL WEST AND MELINA ABDULLAH', 'Cornel West and Melina Abdullah'],
    ['ANDRE ANDERSON', 'Andre Anderson'],
  ])('%s → %s', (text, name) => {
    expect(displayName(text)).toBe(name);
  });
});
