import { closeSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';

/**
 * A graph of plain objects, arrays, Maps, class instances and typed arrays in one file:
 * a JSON header describing every object (shared references and cycles kept) and one
 * binary section holding every typed array's bytes, 8-byte aligned. Reading it back makes
 * each typed array a view on the file's bytes — no copy, no parse of the numbers — so an
 * index of hundreds of megabytes is ready in the time it takes to read the file.
 *
 * Layout: `MAGIC` (8 bytes), header length (uint32 LE), padding to 8, header (UTF-8 JSON),
 * padding to 8, data.
 */
const MAGIC = Buffer.from('CGSNAP01');

/** Class instances the file may hold, by name; each is restored with its own prototype and fields. */
export type SnapshotClasses = Record<string, { prototype: object }>;

type Typed = Float64Array | Float32Array | Int32Array | Uint32Array | Int16Array | Uint16Array | Int8Array | Uint8Array;
const TYPED: Record<string, new (buffer: ArrayBufferLike, offset: number, length: number) => Typed> = {
  Float64Array,
  Float32Array,
  Int32Array,
  Uint32Array,
  Int16Array,
  Uint16Array,
  Int8Array,
  Uint8Array,
};

/** A value in the header: an inline primitive, or a marker object. */
type Ref = number | string | boolean | null | { r: number } | { u: 1 } | { f: string };
/** One object of the graph: a typed array, an array, a Map, or an object (of a class, or plain: 0). */
type Node = ['T', string, number, number] | ['A', Ref[]] | ['M', [Ref, Ref][]] | ['O', string | 0, Record<string, Ref>];

/** Thrown when a file is not a snapshot, or holds what this code cannot restore. */
export class SnapshotError extends Error {}

/** Writes `root` to `path` atomically (a temporary file renamed over it). */
export function writeSnapshot(path: string, root: object, classes: SnapshotClasses): number {
  const nodes: Node[] = [];
  const ids = new Map<object, number>();
  const arrays: Typed[] = [];
  let offset = 0;
  const names = new Map<object, string>(Object.entries(classes).map(([name, c]) => [c.prototype, name]));

  const ref = (v: unknown): Ref => {
    if (v === undefined) return { u: 1 };
    if (typeof v === 'number') return Number.isFinite(v) ? v : { f: String(v) };
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
    if (typeof v !== 'object') throw new SnapshotError(`cannot store a ${typeof v}`);
    const known = ids.get(v);
    if (known !== undefined) return { r: known };
    const id = nodes.length;
    ids.set(v, id);
    nodes.push(['A', []]); // placeholder, so nested objects get later ids
    nodes[id] = describe(v);
    return { r: id };
  };

  const describe = (v: object): Node => {
    if (ArrayBuffer.isView(v)) {
      const ctor = v.constructor.name;
      if (TYPED[ctor] === undefined) throw new SnapshotError(`cannot store a ${ctor}`);
      offset = align(offset);
      const at = offset;
      arrays.push(v as Typed);
      offset += v.byteLength;
      return ['T', ctor, at, (v as Typed).length];
    }
    if (Array.isArray(v)) return ['A', v.map(ref)];
    if (v instanceof Map) return ['M', [...v].map(([k, x]): [Ref, Ref] => [ref(k), ref(x)])];
    const proto = Object.getPrototypeOf(v) as object | null;
    const name = proto === Object.prototype || proto === null ? 0 : names.get(proto);
    if (name === undefined)
      throw new SnapshotError(
        `cannot store an instance of ${(v as { constructor?: { name?: string } }).constructor?.name ?? 'an unknown class'}`,
      );
    const fields: Record<string, Ref> = {};
    for (const [k, x] of Object.entries(v)) fields[k] = ref(x);
    return ['O', name, fields];
  };

  const rootRef = ref(root);
  const header = Buffer.from(JSON.stringify({ root: rootRef, nodes }));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length);
  const dataStart = align(align(MAGIC.length + 4) + header.length);
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    let pos = 0;
    const put = (bytes: Uint8Array, at: number) => {
      writeSync(fd, bytes, 0, bytes.length, at);
      pos = at + bytes.length;
    };
    put(MAGIC, 0);
    put(length, MAGIC.length);
    put(header, align(MAGIC.length + 4));
    let at = 0;
    for (const a of arrays) {
      at = align(at);
      put(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), dataStart + at);
      at += a.byteLength;
    }
    if (pos < dataStart) put(new Uint8Array(1), dataStart); // an empty data section still has its start
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  return dataStart + offset;
}

/** Reads a file `writeSnapshot` wrote; typed arrays are views on its bytes. */
export function readSnapshot(path: string, classes: SnapshotClasses): unknown {
  const file = readFileSync(path);
  if (file.length < MAGIC.length + 4 || !file.subarray(0, MAGIC.length).equals(MAGIC))
    throw new SnapshotError(`${path} is not a snapshot`);
  const headerStart = align(MAGIC.length + 4);
  const headerLength = file.readUInt32LE(MAGIC.length);
  const { root, nodes } = JSON.parse(file.toString('utf8', headerStart, headerStart + headerLength)) as {
    root: Ref;
    nodes: Node[];
  };
  const dataStart = align(headerStart + headerLength);
  // Views need their element size's alignment in the underlying buffer.
  const bytes = (file.byteOffset + dataStart) % 8 === 0 ? file : Buffer.from(file);
  const base = bytes.byteOffset + dataStart;

  const objects: unknown[] = nodes.map((n) => {
    switch (n[0]) {
      case 'T': {
        const Ctor = TYPED[n[1]];
        if (Ctor === undefined) throw new SnapshotError(`unknown array type ${n[1]}`);
        return new Ctor(bytes.buffer, base + n[2], n[3]);
      }
      case 'A':
        return [];
      case 'M':
        return new Map();
      case 'O': {
        if (n[1] === 0) return {};
        const c = classes[n[1]];
        if (c === undefined) throw new SnapshotError(`unknown class ${n[1]}`);
        return Object.create(c.prototype) as object;
      }
    }
  });
  const value = (r: Ref): unknown => {
    if (r === null || typeof r !== 'object') return r;
    if ('r' in r) return objects[r.r];
    if ('f' in r) return Number(r.f);
    return undefined;
  };
  nodes.forEach((n, i) => {
    const target = objects[i];
    if (n[0] === 'A') for (const r of n[1]) (target as unknown[]).push(value(r));
    else if (n[0] === 'M') for (const [k, v] of n[1]) (target as Map<unknown, unknown>).set(value(k), value(v));
    else if (n[0] === 'O') for (const [k, v] of Object.entries(n[2])) (target as Record<string, unknown>)[k] = value(v);
  });
  return value(root);
}

/** Removes a snapshot file; no error when there is none. */
export function removeSnapshot(path: string): void {
  rmSync(path, { force: true });
}

function align(n: number): number {
  return Math.ceil(n / 8) * 8;
}
