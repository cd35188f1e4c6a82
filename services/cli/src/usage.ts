import { readFileSync } from 'node:fs';

/** This command's version: the CLI package's. */
export const VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** Each command's usage, as `civicgraph <command> --help` prints it; the global usage joins them. */
export const COMMAND_USAGE: Readonly<Record<string, string>> = {
  up: `  up [--demo]             start every service on this machine (embedded stores; NATS when NATS_URL is set),
                          serving the public sources (loaded on the first start, then refreshed on schedule);
                          --demo: synthetic elections over the real maps instead; one \`up\` per data folder
`,
  sources: `  sources list|status [--json]
                          the public sources: last fetch, version, rows, status; the newest import runs
  sources run [source id…] [--json]
                          fetch the sources now (all, or those named) and import what changed
`,
  keys: `  keys create [--env test|live] [--plan explore|build|enterprise] [--entitlements contact,geography]
              [--states CO,DE] [--tiers federal,state] [--rate-limit N] [--label TEXT] [--json]
  keys list
  keys show <key-id>
  keys rotate <key-id> [--grace-seconds N]
                          a new secret for the key; the old one keeps working for N seconds
  keys revoke <key-id>
`,
  import: `  import boundaries <file|folder>… --level <level> (--valid-from YYYY-MM-DD [--valid-to YYYY-MM-DD]
              [--elections-from YYYY-MM-DD] [--elections-to YYYY-MM-DD] | --undated) [--state XX]
              [--scale 1:20000000] [--replace | --max-delete-fraction F] [--strict] [--code-field F] [--name-field F] [--json]
                          GeoJSON, TopoJSON or Shapefile (.shp or .zip); a folder's boundary files, or several
                          files, as one map in one transaction; one layer per state; deleting stored districts
                          needs --replace; --scale: a generalised map's (else its name's, else full resolution);
                          a running service picks it up
  import ocd <folder|file.csv> --retrieved-at YYYY-MM-DD [--as-of YYYY-MM-DD] [--json]
  import legislators <legislators-current.yaml> --retrieved-at YYYY-MM-DD [--as-of YYYY-MM-DD] [--json]
  import openstates-people <state folder|folder of state folders> --retrieved-at YYYY-MM-DD
              [--places <ocd country-us folder|us_census_places.csv>] [--json]
                          governors, statewide officers, state legislators and (with --places) mayors
  import fec-candidates <weballYY.txt> [--cycle YYYY] [--legislators <legislators-current.yaml>] [--retrieved-at …] [--json]
  import results <medsl.csv|co24-contest-totals.csv|de24.zip> [--json]
  import precinct-districts <precinct returns: de24.zip|co24-denver-precinct.csv> [--json]
  import vip <feed.xml|feed.zip> [--json]
                          into the election graph; one atomic batch per row, re-runs change nothing;
                          --retrieved-at: when the source was published (required where it carries no date)
`,
  export: `  export --out <folder> [--kinds candidacy,contest,…] [--states co,de] [--formats ndjson,csv,parquet] [--no-edges]
         [--contact] [--json]
                          the graph (or the kinds and states named) from one consistent snapshot of the store, as
                          verified files and a manifest naming the change-feed position, into <folder>/<export id>/;
                          contact fields only with --contact; a progress bar on a terminal
`,
  settings: `  settings                every environment variable of this command and of each service process: default and meaning
`,
};

export const USAGE = `usage: civicgraph <command> [--help]
       civicgraph --version

commands:
${Object.values(COMMAND_USAGE).join('')}`;

/** A command's own usage, for `civicgraph <command> --help`. */
export function commandUsage(command: string): string {
  return `usage:\n${COMMAND_USAGE[command] ?? ''}`;
}

/**
 * The flag a refusal's field stands for in `command` (`valid_from` → `--valid-from`), when
 * the command has such a flag: the services name fields as the API does, a person at a
 * terminal typed flags.
 */
export function flagOf(command: string, field: string): string | undefined {
  const flag = `--${field.replaceAll('_', '-')}`;
  return new RegExp(`${flag}(?![\\w-])`).test(COMMAND_USAGE[command] ?? '') ? flag : undefined;
}

/** A refusal's message with its field named as the flag the person typed. */
export function inFlagTerms(command: string, field: string, message: string): { name: string; message: string } {
  const flag = flagOf(command, field);
  if (flag === undefined) return { name: field, message };
  return { name: flag, message: message.replace(new RegExp(`(?<![\\w-])${field}(?![\\w-])`, 'g'), flag) };
}
