import type { Value } from './values.js';

/**
 * The variables a row binds. Each binding sits on top of the row it extends, so binding one
 * more variable (a node, a relationship, an UNWIND item) allocates one small object and
 * copies nothing: a MATCH over 200,000 candidacies makes 200,000 of them, not 200,000 maps.
 * A variable is bound once per row (openCypher scoping), so the newest binding is the only one.
 */
export class Row {
  /** The row before any clause: no variables. */
  static readonly EMPTY = new Row(undefined, '', null);

  private constructor(
    private readonly parent: Row | undefined,
    private readonly name: string,
    private readonly value: Value,
  ) {}

  /** A row binding each name to the value at its position, in order. */
  static of(names: readonly string[], values: readonly Value[]): Row {
    let row = Row.EMPTY;
    for (let i = 0; i < names.length; i++) row = row.with(names[i]!, values[i]!);
    return row;
  }

  /** This row with one more variable. */
  with(name: string, value: Value): Row {
    return new Row(this, name, value);
  }

  get(name: string): Value | undefined {
    if (this.parent === undefined) return undefined;
    return this.name === name ? this.value : this.parent.get(name);
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  /** Every binding, oldest first. */
  entries(): [string, Value][] {
    if (this.parent === undefined) return [];
    const out = this.parent.entries();
    out.push([this.name, this.value]);
    return out;
  }
}
