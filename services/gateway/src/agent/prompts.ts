import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { hasEntitlement } from '@civicgraph/kit';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import * as z from 'zod';

/**
 * Prompts a desktop client offers its user as ready-made questions: each is a message that
 * tells the model which tools to chain and how to cite what they answer. They call nothing
 * themselves; the tools they name answer under the key's entitlements as always.
 */
interface AgentPrompt {
  name: string;
  title: string;
  description: string;
  needs?: 'geography';
  args: Record<string, z.ZodType<string | undefined>>;
  text(args: Record<string, string | undefined>): string;
}

const CITE =
  'For every candidate, give the sources from its `provenance` (source and publisher) and its `confidence`; say plainly when confidence is low or a field is missing.';

const PROMPTS: readonly AgentPrompt[] = [
  {
    name: 'ballot_briefing',
    title: "What's on my ballot",
    description: 'A briefing on every contest on the ballot at an address, with the candidates and their sources.',
    needs: 'geography',
    args: {
      address: z.string().describe('A street address, a 5-digit ZIP code, or `City, ST`.'),
      date: z.string().optional().describe('Election day (YYYY-MM-DD); default the next election in the state.'),
    },
    text: ({ address, date }) =>
      [
        `Brief me on my ballot at ${address}${date === undefined ? ', for the next election there' : ` on ${date}`}.`,
        'Call find_districts with the address to place it; if it answers `ambiguous: true`, say that the address is coarse and which districts it may fall in.',
        date === undefined
          ? "Then call election_dates for the address's state to find the next election day."
          : 'Use that date as the election day.',
        "Call get_ballot with the geocode's lat and lng and the date. List each contest (national first) with its candidates, party and incumbency; mention `unresolved` regions whose contests may also apply.",
        CITE,
      ].join('\n'),
  },
  {
    name: 'candidate_profile',
    title: 'A candidate, with sources',
    description:
      "A profile of one candidacy: the contest, the candidate's party, status and positions, and every source.",
    args: { slug: z.string().describe('A candidacy slug, e.g. `candidacy:co-cd-1-us-representative-2026-general-…`.') },
    text: ({ slug }) =>
      [
        `Profile the candidacy ${slug}.`,
        'Call get_candidacy with the slug, then get_contest with its `contest` for the race it is in and the other candidates.',
        'Give filing status and ballot access, incumbency, the campaign website, and the positions on issues.',
        CITE,
      ].join('\n'),
  },
];

/** Registers the prompts the principal's entitlements allow (the ballot briefing needs geography, as get_ballot does). */
export function registerPrompts(server: McpServer, principal: Principal): void {
  for (const p of PROMPTS) {
    if (p.needs !== undefined && !hasEntitlement(principal, p.needs)) continue;
    server.registerPrompt(p.name, { title: p.title, description: p.description, argsSchema: p.args }, (args) => ({
      messages: [{ role: 'user', content: { type: 'text', text: p.text(args as Record<string, string | undefined>) } }],
    }));
  }
}
