// Minimal types for the part of `zipcodes` (CommonJS, no bundled types) that the embedded
// geocoder reads. Declared as `export =` so the default import matches Node's CJS interop.
declare module 'zipcodes' {
  /** One registry row. US rows have a 5-digit `zip`; military and unplaced ZIPs sit at 0,0. */
  interface ZipCode {
    zip: string;
    latitude: number;
    longitude: number;
    city: string;
    /** Two-letter USPS state, territory or military code (AA, AE, AP). */
    state: string;
    country: string;
  }
  const zipcodes: {
    /** Every row, US and Canadian, keyed by code. */
    readonly codes: Readonly<Record<string, ZipCode>>;
  };
  export = zipcodes;
}
