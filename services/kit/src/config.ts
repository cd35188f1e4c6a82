import { InvalidParameterError } from './errors.js';

/** One bad setting: the variable and what is wrong with it. */
export interface ConfigProblem {
  variable: string;
  message: string;
}

/**
 * A bad setting stops a process at start; each service's settings schema (settings.ts)
 * throws one naming every bad variable.
 */
export class ConfigError extends Error {
  /** Every bad setting found, the first of them being `variable`. */
  readonly problems: readonly ConfigProblem[];

  constructor(
    readonly variable: string,
    readonly detail: string,
    problems?: readonly ConfigProblem[],
  ) {
    super(
      problems === undefined || problems.length < 2
        ? `${variable}: ${detail}`
        : `bad settings:\n${problems.map((p) => `  ${p.variable}: ${p.message}`).join('\n')}`,
    );
    this.name = 'ConfigError';
    this.problems = problems ?? [{ variable, message: detail }];
  }

  /** One error naming every problem (at least one). */
  static of(problems: readonly ConfigProblem[]): ConfigError {
    const [first] = problems;
    if (first === undefined) throw new Error('ConfigError.of needs at least one problem');
    return new ConfigError(first.variable, first.message, problems);
  }
}

/** Asserts a value parsed from user input is present, for readers that take flags too. */
export function required(field: string, value: string | undefined): string {
  if (value === undefined || value === '') throw new InvalidParameterError(field, `${field} is required`);
  return value;
}

/** The deployment environment word used in event subjects, `civic.<env>.…`. */
export const ENVIRONMENTS = ['test', 'live'] as const;
export type DeploymentEnvironment = (typeof ENVIRONMENTS)[number];
