import type { Feed } from './read-feed.js';
import { attr, children, type El } from './xml.js';

/** One top-level feed element: its type (element name), id, and where it is. */
export interface FeedElement {
  type: string;
  id: string;
  el: El;
  /** `Candidate can10861a (line 412)`: how messages name it. */
  label: string;
}

/** An id reference that names no element of the kinds it must. */
export interface Dangling {
  problem: string;
}

/**
 * The feed's top-level elements by id. VIP ids are document-wide (xs:ID): an id used twice
 * keeps its first element and the later ones are listed as duplicates, to be rejected.
 */
export class FeedIndex {
  private readonly byId = new Map<string, FeedElement>();
  private readonly byType = new Map<string, FeedElement[]>();
  readonly duplicates: { element: FeedElement; first: FeedElement }[] = [];
  /** Top-level elements with no id, which nothing can reference. */
  readonly anonymous: FeedElement[] = [];

  constructor(private readonly feed: Feed) {
    for (const [type, value] of Object.entries(feed.root)) {
      if (type.startsWith('@_') || type === '#text' || !Array.isArray(value)) continue;
      for (const el of children(feed.root, type)) this.add(type, el);
    }
  }

  private add(type: string, el: El): void {
    const id = attr(el, 'id') ?? '';
    const line = this.feed.lineOf(el);
    const element: FeedElement = {
      type,
      id,
      el,
      label: `${type}${id === '' ? '' : ` ${id}`}${line === undefined ? '' : ` (line ${line})`}`,
    };
    if (id === '') {
      this.anonymous.push(element);
      return;
    }
    const first = this.byId.get(id);
    if (first !== undefined) {
      this.duplicates.push({ element, first });
      return;
    }
    this.byId.set(id, element);
    const list = this.byType.get(type);
    if (list === undefined) this.byType.set(type, [element]);
    else list.push(element);
  }

  /** Elements of a type with a unique id, in document order. */
  ofType(type: string): readonly FeedElement[] {
    return this.byType.get(type) ?? [];
  }

  /** Counts of every element type, duplicates included. */
  counts(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const e of [...this.byId.values(), ...this.duplicates.map((d) => d.element), ...this.anonymous])
      counts[e.type] = (counts[e.type] ?? 0) + 1;
    return counts;
  }

  /**
   * The element `id` names, when it is one of `types`; else why not, naming the owner,
   * the field and the id: `Candidate can1 (line 40): PartyId "par9" names no element`.
   */
  resolve(owner: FeedElement, field: string, id: string, types: readonly string[]): FeedElement | Dangling {
    const found = this.byId.get(id);
    if (found === undefined) return { problem: `${owner.label}: ${field} "${id}" names no element in the feed` };
    if (!types.includes(found.type))
      return { problem: `${owner.label}: ${field} "${id}" names a ${found.type}, not a ${types.join(' or ')}` };
    return found;
  }
}

export const isDangling = (r: FeedElement | Dangling): r is Dangling => 'problem' in r;
