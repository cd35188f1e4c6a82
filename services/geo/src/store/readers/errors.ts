import { InvalidParameterError } from '@civicgraph/kit';

/**
 * A boundary file that cannot be read as a whole: its content is not what its extension
 * says, it is none of GeoJSON, TopoJSON or a shapefile, a shapefile part is missing, or its
 * coordinate reference system is unknown. It is an `invalid_parameter` error on the field
 * `file` (the CLI argument), and its message names the file. Problems with single features
 * are not thrown: they are reported in `BoundaryFileContents.rejected`.
 */
export class BoundaryFileError extends InvalidParameterError {
  /** The file as it was given to the reader. */
  readonly path: string;

  constructor(path: string, detail: string, options: { cause?: unknown } = {}) {
    super('file', `${path}: ${detail}`, options);
    this.path = path;
  }
}
