import { LineCounter, isMap, parseDocument } from 'yaml';

/** What a person file holds: its record as plain data, or why it cannot be read, with the line. */
export type ParsedFile = { value: Record<string, unknown> } | { line: number; reason: string };

/**
 * One Open States person file, whose top level is a mapping. A syntax error (or a
 * duplicate key) is a reason with its line: the file is left out as a whole, since a
 * malformed record cannot be trusted to be what it seems, while the other files go on.
 */
export function parsePersonFile(text: string): ParsedFile {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true });
  const error = doc.errors[0];
  if (error !== undefined)
    return { line: error.linePos?.[0].line ?? 0, reason: `malformed YAML: ${error.message.split('\n')[0]}` };
  if (!isMap(doc.contents)) return { line: 1, reason: 'not a person record: the YAML top level is not a mapping' };
  return { value: doc.toJSON() as Record<string, unknown> };
}
