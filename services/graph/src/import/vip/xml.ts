/**
 * Reading the element trees fast-xml-parser builds with every child in an array (so one
 * and many look alike), attributes as `@_name` and text as `#text` where an element has
 * attributes. Nothing here throws: absent is undefined or empty.
 */
export type El = Readonly<Record<string, unknown>>;

const isEl = (v: unknown): v is El => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The child elements named `name`. */
export function children(el: El, name: string): El[] {
  const v = el[name];
  return Array.isArray(v) ? v.filter(isEl) : [];
}

export function child(el: El, name: string): El | undefined {
  return children(el, name)[0];
}

/** The text of a node: a string, or the `#text` of an element with attributes. */
export function textOf(node: unknown): string {
  if (typeof node === 'string') return node.trim();
  if (isEl(node) && typeof node['#text'] === 'string') return node['#text'].trim();
  if (isEl(node) && typeof node['#text'] === 'number') return String(node['#text']);
  return '';
}

/** Texts of every child named `name`, empty ones dropped. */
export function texts(el: El, name: string): string[] {
  const v = el[name];
  return (Array.isArray(v) ? v : []).map(textOf).filter((t) => t !== '');
}

/** The text of the first child named `name`; undefined when absent or empty. */
export function text(el: El, name: string): string | undefined {
  return texts(el, name)[0];
}

/** Space-separated id references (`OfficeIds`, `BallotSelectionIds`), every child of that name. */
export function idRefs(el: El, name: string): string[] {
  return texts(el, name)
    .flatMap((t) => t.split(/\s+/))
    .filter((t) => t !== '');
}

export function attr(el: El, name: string): string | undefined {
  const v = el[`@_${name}`];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

/**
 * An InternationalizedText child (`<Name><Text language="en">…</Text></Name>`): the English
 * text, else the first; VIP 5 also lets some of these be plain strings.
 */
export function intl(el: El, name: string): string | undefined {
  const node = child(el, name);
  if (node === undefined) return text(el, name);
  const options = children(node, 'Text');
  const english = options.find((t) => (attr(t, 'language') ?? 'en').toLowerCase().startsWith('en'));
  const value = textOf(english ?? options[0]);
  return value === '' ? undefined : value;
}

/** `true` / `false` (XML Schema booleans, also `1` / `0`); undefined otherwise. */
export function bool(el: El, name: string): boolean | undefined {
  const v = text(el, name)?.toLowerCase();
  return v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : undefined;
}

/** The value of an ExternalIdentifier of a type (`ocd-id`, `fips`, or an `other` type by OtherType, e.g. `bioguide`). */
export function externalId(el: El, type: string): string | undefined {
  for (const id of children(child(el, 'ExternalIdentifiers') ?? {}, 'ExternalIdentifier')) {
    const t = text(id, 'Type')?.toLowerCase();
    const other = text(id, 'OtherType')?.toLowerCase();
    if (t === type || (t === 'other' && other === type)) return text(id, 'Value');
  }
  return undefined;
}

/** Every child named `name` as parsed: strings for bare text, elements where there are attributes. */
export function nodes(el: El, name: string): unknown[] {
  const v = el[name];
  return Array.isArray(v) ? v : [];
}
