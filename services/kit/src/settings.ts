import { z } from 'zod';
import { ConfigError, ENVIRONMENTS, type ConfigProblem } from './config.js';
import { TRACE_EXPORTERS, type TracingConfig } from './tracing/tracing.js';

/**
 * One environment variable of a service: its zod type (applied to the variable's text, or to
 * the default's), and either a default, `required`, or neither (then it is undefined when
 * unset). The description is what the settings table and the README say about it.
 */
export interface Setting<T> {
  type: z.ZodType<T, string>;
  /** The default, written as the variable would be (so the table shows what to type). */
  default?: string;
  /** No default: the process does not start without it. */
  required?: true;
  /** A secret: a refusal says how long the value was, never the value. */
  sensitive?: true;
  description: string;
}

type SettingValue<S> =
  S extends Setting<infer T> ? (S extends { default: string } | { required: true } ? T : T | undefined) : never;

type RequiredKeys<S> = { [K in keyof S]: S[K] extends { required: true } ? K : never }[keyof S];

/** The parsed values of a settings schema, by variable name. */
export type SettingValues<S extends Record<string, Setting<unknown>>> = {
  -readonly [K in keyof S]: SettingValue<S[K]>;
};

type Env = Readonly<Record<string, string | undefined>>;

/** One service's settings: the zod schema of its environment, and the table it documents. */
export class Settings<S extends Record<string, Setting<unknown>>> {
  /** The zod object over the environment: unset and empty variables take their default. */
  readonly schema: z.ZodType<SettingValues<S>>;

  constructor(
    readonly service: string,
    readonly specs: S,
  ) {
    const shape = Object.fromEntries(Object.entries(specs).map(([name, spec]) => [name, variableSchema(spec)]));
    this.schema = z.object(shape) as unknown as z.ZodType<SettingValues<S>>;
  }

  /** The values of `env`; throws one ConfigError naming every missing or malformed variable. */
  parse(env: Env): SettingValues<S> {
    const result = this.schema.safeParse(env);
    if (result.success) return result.data;
    throw ConfigError.of(problems(this.specs, env, result.error));
  }

  /** Every setting but the required ones, as when left unset: the base of a config built in code. */
  defaults(): Omit<SettingValues<S>, RequiredKeys<S>> {
    const env = Object.fromEntries(
      Object.entries(this.specs)
        .filter(([, s]) => s.default !== undefined)
        .map(([n, s]) => [n, s.default]),
    );
    const shape = Object.fromEntries(Object.keys(env).map((name) => [name, variableSchema(this.specs[name]!)]));
    return z.object(shape).parse(env) as Omit<SettingValues<S>, RequiredKeys<S>>;
  }

  /** The settings as `[variable, default, description]` rows, in declaration order. */
  rows(): [string, string, string][] {
    return Object.entries(this.specs).map(([name, s]) => [
      name,
      s.default === '' ? 'empty' : (s.default ?? (s.required ? 'required' : 'unset')),
      s.description,
    ]);
  }
}

export function defineSettings<S extends Record<string, Setting<unknown>>>(service: string, specs: S): Settings<S> {
  return new Settings(service, specs);
}

function variableSchema(spec: Setting<unknown>): z.ZodType {
  const inner = spec.required || spec.default !== undefined ? spec.type : spec.type.optional();
  return z.preprocess((v) => (v === undefined || v === '' ? spec.default : v), inner);
}

function problems(specs: Record<string, Setting<unknown>>, env: Env, error: z.ZodError): ConfigProblem[] {
  const byVariable = new Map<string, string[]>();
  for (const issue of error.issues) {
    const variable = String(issue.path[0] ?? '(environment)');
    const raw = env[variable];
    const spec = specs[variable];
    const got = spec?.sensitive ? `got ${raw?.length} characters` : `got "${raw}"`;
    const message =
      raw === undefined || raw === ''
        ? `required (${spec?.description ?? 'no default'}), but unset`
        : `${issue.message}, ${got}`;
    byVariable.set(variable, [...(byVariable.get(variable) ?? []), message]);
  }
  return [...byVariable].map(([variable, messages]) => ({ variable, message: [...new Set(messages)].join('; ') }));
}

/** Settings tables as markdown: one table per service, variable | default | description. */
export function settingsMarkdown(all: readonly Settings<Record<string, Setting<unknown>>>[]): string {
  const cell = (s: string) => s.replaceAll('|', '\\|');
  return all
    .map((settings) =>
      [
        `#### ${settings.service}`,
        '',
        '| variable | default | description |',
        '|---|---|---|',
        ...settings
          .rows()
          .map(
            ([name, def, description]) =>
              `| \`${name}\` | ${['required', 'unset', 'empty'].includes(def) ? def : `\`${cell(def)}\``} | ${cell(description)} |`,
          ),
        '',
      ].join('\n'),
    )
    .join('\n');
}

/** Settings tables as plain text, for `--settings`. */
export function settingsText(settings: Settings<Record<string, Setting<unknown>>>): string {
  const rows = [['variable', 'default', 'description'], ...settings.rows()];
  const widths = [0, 1].map((i) => Math.max(...rows.map((r) => r[i]!.length)));
  return `${settings.service} settings (environment variables):\n${rows.map(([n, d, text]) => `  ${n!.padEnd(widths[0]!)}  ${d!.padEnd(widths[1]!)}  ${text}`).join('\n')}\n`;
}

// The types the services' settings are made of. Each reads the variable's text.

/** An integer from `min` to `max`. */
export function integer(min = 0, max = Number.MAX_SAFE_INTEGER): z.ZodType<number, string> {
  return z
    .string()
    .regex(/^-?\d+$/, 'expected an integer')
    .transform(Number)
    .pipe(z.number().int().min(min, `expected at least ${min}`).max(max, `expected at most ${max}`));
}

/** A TCP port; 0 picks a free one. */
export const port = (): z.ZodType<number, string> => integer(0, 65535);

/** Any text. */
export const text = (): z.ZodType<string, string> => z.string();

/** Text of at least `n` characters (secrets). */
export const secret = (n: number): z.ZodType<string, string> => z.string().min(n, `expected at least ${n} characters`);

/** A `host:port` address of an upstream service. */
export const address = (): z.ZodType<string, string> => z.string().regex(/^[^\s:]+:\d{1,5}$/, 'expected host:port');

/** One of a fixed set of words. */
export function word<const T extends readonly [string, ...string[]]>(values: T): z.ZodType<T[number], string> {
  return z
    .string()
    .refine((v): v is T[number] => values.includes(v), `expected one of ${values.join(', ')}`) as unknown as z.ZodType<
    T[number],
    string
  >;
}

/** `on` or `off`, as a boolean. */
export const onOff = (): z.ZodType<boolean, string> => word(['on', 'off'] as const).transform((v) => v === 'on');

/** A number from 0 to 1. */
export const fraction = (): z.ZodType<number, string> =>
  z
    .string()
    .regex(/^(0(\.\d+)?|1(\.0+)?|\.\d+)$/, 'expected a number from 0 to 1')
    .transform(Number);

/** A comma-separated list, trimmed, empty items dropped. */
export const commaList = (): z.ZodType<string[], string> =>
  z.string().transform((raw) =>
    raw
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  );

/** A URL with one of the given schemes. */
export function url(...schemes: string[]): z.ZodType<string, string> {
  return z.string().refine(
    (v) => {
      try {
        return schemes.length === 0 || schemes.includes(new URL(v).protocol.replace(/:$/, ''));
      } catch {
        return false;
      }
    },
    `expected a ${schemes.join('/')} URL`,
  );
}

/** Text read by `parse`, which throws (a ConfigError, say) on a bad value: the message becomes the issue. */
export function parsed<T>(parse: (raw: string) => T): z.ZodType<T, string> {
  return z.string().transform((raw, ctx) => {
    try {
      return parse(raw);
    } catch (err) {
      // A ConfigError about a part of the value (`GEO_MANIFEST[3]`) keeps the part's name.
      const message =
        err instanceof ConfigError ? (err.variable.includes('[') ? err.message : err.detail) : (err as Error).message;
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
  });
}

/** The pino levels LOG_LEVEL takes. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Settings most services share, spread into their own schemas. */
export const COMMON_SETTINGS = {
  CIVIC_DATA_DIR: { type: text(), default: '.civicgraph', description: 'folder of the embedded stores' },
  CIVIC_ENV: {
    type: word(ENVIRONMENTS),
    default: 'test',
    description:
      'the environment the deployment serves (`test`: `cg_test_` keys, the sandbox dataset; `live`: `cg_live_` keys) and the word in event subjects `civic.<env>.…`',
  },
  // Text, not a URL: the client also takes `host:port` and comma-separated server lists.
  NATS_URL: {
    type: text(),
    description: 'NATS JetStream (a server, or a comma-separated list); unset → the in-process bus',
  },
  LOG_LEVEL: { type: word(LOG_LEVELS), default: 'info', description: 'pino level' },
  CIVIC_CURSOR_SECRET: {
    type: text(),
    sensitive: true,
    description: 'signs pagination cursors; replicas must share one; unset → a random secret kept in `CIVIC_DATA_DIR`',
  },
  METRICS_PORT: {
    type: port(),
    description: 'port of the Prometheus `GET /metrics` listener (`0` picks a free one); unset → none',
  },
  METRICS_HOST: {
    type: text(),
    default: '127.0.0.1',
    description: 'bind address of that listener (`0.0.0.0` in containers)',
  },
  // The OpenTelemetry SDK's own variable names, so a collector's usual setup applies; read here, like every other.
  OTEL_TRACES_EXPORTER: {
    type: word(TRACE_EXPORTERS),
    default: 'none',
    description:
      'where trace spans go: `none` (tracing off: no span is made) or `otlp` (OTLP over HTTP/protobuf to OTEL_EXPORTER_OTLP_ENDPOINT)',
  },
  OTEL_EXPORTER_OTLP_ENDPOINT: {
    type: url('http', 'https'),
    default: 'http://127.0.0.1:4318',
    description: 'base URL of the OTLP collector; spans are sent to `<endpoint>/v1/traces`',
  },
  OTEL_SERVICE_NAME: { type: text(), description: "`service.name` of the spans; unset → the service's name" },
  OTEL_TRACES_SAMPLER_ARG: {
    type: fraction(),
    default: '1',
    description:
      'fraction of new traces recorded (`0.01`: one in a hundred); a request carrying a `traceparent` follows its sampled flag',
  },
} satisfies Record<string, Setting<unknown>>;

/** The tracing settings of COMMON_SETTINGS, for a service's schema: `...TRACING_SETTINGS`. */
export const TRACING_SETTINGS = {
  OTEL_TRACES_EXPORTER: COMMON_SETTINGS.OTEL_TRACES_EXPORTER,
  OTEL_EXPORTER_OTLP_ENDPOINT: COMMON_SETTINGS.OTEL_EXPORTER_OTLP_ENDPOINT,
  OTEL_SERVICE_NAME: COMMON_SETTINGS.OTEL_SERVICE_NAME,
  OTEL_TRACES_SAMPLER_ARG: COMMON_SETTINGS.OTEL_TRACES_SAMPLER_ARG,
};

/** A service's TracingConfig from its parsed TRACING_SETTINGS; `service` names its spans unless OTEL_SERVICE_NAME does. */
export function tracingConfigOf(s: SettingValues<typeof TRACING_SETTINGS>, service: string): TracingConfig {
  return {
    exporter: s.OTEL_TRACES_EXPORTER,
    endpoint: s.OTEL_EXPORTER_OTLP_ENDPOINT,
    serviceName: s.OTEL_SERVICE_NAME ?? service,
    sampleRatio: s.OTEL_TRACES_SAMPLER_ARG,
  };
}

/** A gRPC bind pair, `<PREFIX>_GRPC_HOST` and `<PREFIX>_GRPC_PORT`. */
export function grpcBindSettings<P extends string>(prefix: P, defaultPort: number) {
  return {
    [`${prefix}_GRPC_HOST`]: {
      type: text(),
      default: '127.0.0.1',
      description: 'gRPC bind address (`0.0.0.0` in containers)',
    },
    [`${prefix}_GRPC_PORT`]: {
      type: port(),
      default: String(defaultPort),
      description: 'gRPC port (`0` picks a free one)',
    },
  } as Record<`${P}_GRPC_HOST`, Setting<string> & { default: string }> &
    Record<`${P}_GRPC_PORT`, Setting<number> & { default: string }>;
}
