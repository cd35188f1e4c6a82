import { isSeq, LineCounter, parseDocument } from 'yaml';
import { ImportFileError } from '../shared/errors.js';

/** One top-level list item of a YAML file, as plain data, with the line it starts on. */
export interface YamlRecord {
  /** 1-based position in the list. */
  index: number;
  line: number;
  value: unknown;
}

/**
 * The items of a YAML file whose top level is a list (congress-legislators' files). A
 * syntax error anywhere, or a top level that is not a list, is an ImportFileError naming
 * the line: a malformed file is not imported record by record, since its later records
 * cannot be trusted to be what they seem.
 */
export function yamlRecords(text: string, file: string): YamlRecord[] {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true });
  const error = doc.errors[0];
  if (error !== undefined) {
    const line = error.linePos?.[0].line ?? 0;
    throw new ImportFileError(file, line, `malformed YAML: ${error.message.split('\n')[0]}`, { cause: error });
  }
  if (!isSeq(doc.contents)) throw new ImportFileError(file, 1, 'the YAML top level is not a list of records');
  return doc.contents.items.map((item, i) => {
    const offset = (item as { range?: [number, number, number] }).range?.[0] ?? 0;
    return { index: i + 1, line: lineCounter.linePos(offset).line, value: (item as { toJSON(): unknown }).toJSON() };
  });
}
