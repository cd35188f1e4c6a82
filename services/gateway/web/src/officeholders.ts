import type { District, Officeholder } from './api.js';
import { h } from './dom.js';
import { levelLabel } from './levels.js';

/** Who holds each district's offices on the date, district by district (broadest first). */
export function officeholdersView(rows: { district: District; holders: Officeholder[] }[], date: string): HTMLElement {
  const withHolders = rows.filter((r) => r.holders.length > 0);
  if (withHolders.length === 0)
    return h('p', { class: 'cg-summary' }, `No officeholders are known for these districts on ${date}.`);
  return h(
    'div',
    { class: 'cg-officeholders' },
    ...withHolders.map(({ district, holders }) =>
      h(
        'section',
        { 'data-slug': district.slug, 'aria-label': `${levelLabel(district.level)}: ${district.name}` },
        h('h3', {}, `${levelLabel(district.level)}: ${district.name}`),
        h(
          'ul',
          {},
          ...holders.map((o) =>
            h(
              'li',
              { class: 'cg-officeholder' },
              h('span', { class: 'cg-office' }, o.office),
              ' — ',
              h('span', { class: 'cg-person' }, o.person),
              o.party === null ? null : h('span', { class: 'cg-party' }, o.party),
              o.term_start === null ? null : h('span', { class: 'cg-term' }, `since ${o.term_start}`),
            ),
          ),
        ),
      ),
    ),
  );
}
