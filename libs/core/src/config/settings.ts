import type { FactoryProvider, Type } from '@nestjs/common';
import { plainToInstance, Transform } from 'class-transformer';
import { IsUrl, validateSync } from 'class-validator';

/**
 * The raw variables every settings schema is read from: the process environment with `.env` loaded
 * into it. Tests replace this one provider to configure every context at once.
 */
export const ENVIRONMENT_VARIABLES = Symbol('ENVIRONMENT_VARIABLES');
export type EnvironmentVariables = Record<string, string | undefined>;

/** Turns `"42"` into 42 and leaves anything else for the validator to refuse. */
export const IntegerSetting = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value,
  );

/** Accepts true/false, 1/0 and yes/no in any case. */
export const BooleanSetting = () =>
  Transform(({ value }: { value: unknown }) => {
    if (typeof value !== 'string') return value;
    const normalised = value.trim().toLowerCase();
    if (['true', '1', 'yes'].includes(normalised)) return true;
    if (['false', '0', 'no'].includes(normalised)) return false;
    return value;
  });

/** Turns `"a, b,"` into `['a', 'b']`: a comma-separated list, blanks left out. */
export const ListSetting = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((item) => item.trim())
          .filter((item) => item !== '')
      : value,
  );

/**
 * A setting that holds an address: a URL with one of `protocols`, stated in full (`notaurl` is a host name
 * to class-validator, not a URL), refused with an example of one that works. With `each`, a list of them.
 */
export const UrlSetting = (protocols: string[], example: string, { each = false } = {}) =>
  IsUrl(
    { protocols, require_protocol: true, require_host: true, require_tld: false },
    {
      each,
      message: ({ property }) =>
        `${property} must be ${each ? 'comma-separated ' : 'a '}${protocols.join(':// or ')}:// URL${each ? 's' : ''} such as ${example}`,
    },
  );

/** A schema's rule that spans several of its settings; returns one line per violation. */
export interface CrossFieldRules {
  violations(): string[];
}

/** The error that names every bad setting, one per line; a process prints its message and stops. */
export class InvalidSettingsError extends Error {
  constructor(lines: string[]) {
    super(`Invalid configuration:\n${lines.map((line) => `  ${line}`).join('\n')}`);
    this.name = InvalidSettingsError.name;
  }
}

/** Reads a schema and lists what is wrong with it: each bad setting, then (once they are valid) cross-field rules. */
export function readSettings<T extends object>(
  schema: Type<T>,
  variables: EnvironmentVariables,
): { settings: T; violations: string[] } {
  const known = Object.keys(new schema());
  const present = Object.fromEntries(
    Object.entries(variables).filter(([key, value]) => known.includes(key) && value !== ''),
  );
  const settings = plainToInstance(schema, present, { exposeDefaultValues: true });
  const violations = validateSync(settings).map(
    (error) => `${error.property}=${JSON.stringify(error.value)}: ${Object.values(error.constraints ?? {}).join('; ')}`,
  );
  if (violations.length === 0 && hasCrossFieldRules(settings)) violations.push(...settings.violations());
  return { settings, violations };
}

/**
 * Reads one schema (a class whose properties are variable names with defaults and class-validator
 * rules) from the variables. Throws one readable error naming every bad setting, so the process
 * refuses to start before it listens.
 */
export function loadSettings<T extends object>(schema: Type<T>, variables: EnvironmentVariables): T {
  const { settings, violations } = readSettings(schema, variables);
  if (violations.length > 0) throw new InvalidSettingsError(violations);
  return settings;
}

function hasCrossFieldRules(settings: object): settings is CrossFieldRules {
  return typeof (settings as Partial<CrossFieldRules>).violations === 'function';
}

const SCHEMAS = new WeakSet<Type>();

/** Whether `token` is a settings schema given to `settingsProvider`. */
export function isSettingsSchema(token: unknown): token is Type {
  return typeof token === 'function' && SCHEMAS.has(token as Type);
}

/** Provides a context's settings schema, validated from the one source of variables. */
export function settingsProvider<T extends object>(schema: Type<T>): FactoryProvider<T> {
  SCHEMAS.add(schema);
  return {
    provide: schema,
    inject: [ENVIRONMENT_VARIABLES],
    useFactory: (variables: EnvironmentVariables) => loadSettings(schema, variables),
  };
}
