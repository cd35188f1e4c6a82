import { basename } from 'node:path';
import { InvalidParameterError } from '@civicgraph/kit';

/**
 * A source file that cannot be read as a whole: wrongly encoded, malformed, truncated inside
 * a quoted field, missing its header. Unlike a bad row (a Rejection, after which the import
 * goes on), this ends the import; the message names the file and the line so a data editor
 * can open it there. It is an `invalid_parameter` error on the `path` the caller gave.
 */
export class ImportFileError extends InvalidParameterError {
  constructor(
    readonly file: string,
    /** 1-based line; 0 when the problem is the file as a whole (empty, unknown name). */
    readonly line: number,
    readonly reason: string,
    options: { cause?: unknown } = {},
  ) {
    super('path', `${basename(file)}${line > 0 ? ` line ${line}` : ''}: ${reason}`, options);
  }
}
