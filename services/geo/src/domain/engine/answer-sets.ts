/**
 * Distinct answers — ascending lists of region ids — each stored once, with its list of
 * records, so the answer grid and tree leaves hold one number per answer.
 */
export class AnswerSets<T> {
  readonly ids: (readonly number[])[] = [];
  readonly records: (readonly T[])[] = [];
  private readonly byKey = new Map<string, number>();

  constructor(private readonly items: readonly T[]) {}

  /** The id of an ascending list of item ids, stored on first sight. */
  intern(ids: readonly number[]): number {
    const key = ids.join(',');
    let id = this.byKey.get(key);
    if (id === undefined) {
      this.byKey.set(key, (id = this.ids.length));
      this.ids.push([...ids]);
      this.records.push(ids.map((k) => this.items[k]!));
    }
    return id;
  }
}
