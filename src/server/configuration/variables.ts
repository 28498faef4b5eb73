/**
 * Declarations of the environment variables the server reads: each says its name, how its text becomes a
 * value, its default and what it does. The areas read their settings through them, and docs/configuration.md
 * is written from them (`npm run docs:configuration`, the groups listed in allVariables.ts), so the page lists
 * exactly what the code reads.
 *
 * One rule for every variable: its text is trimmed (a secret's is not), and an empty one counts as unset.
 */

/** Where settings are read from: process.env, or a test's own object. */
export type Environment = Readonly<Record<string, string | undefined>>;

export interface Variable<T> {
  readonly name: string;
  /** Read for the product's own use (the test runner's marker, a child process's input): not a setting, left out of the tables. */
  readonly internal: boolean;
  /** The page's default and meaning columns. */
  readonly documentation: { readonly default: string; readonly meaning: string };
  read(env?: Environment): T;
}

export interface Declaration {
  /** What the variable does: the page's sentence. */
  meaning: string;
  /** The page's default where the code computes it ("`DATA_DIR/tiles`", "on with demo data"). */
  defaultText?: string;
  internal?: boolean;
}

const NONE = '—';
const code = (value: string | number): string => `\`${value}\``;

function declare<T>(
  name: string,
  declaration: Declaration,
  defaultText: string,
  parse: (text: string | undefined) => T,
  trim = true,
): Variable<T> {
  return {
    name,
    internal: declaration.internal ?? false,
    documentation: { default: declaration.defaultText ?? defaultText, meaning: declaration.meaning },
    read: (env = process.env) => parse((trim ? env[name]?.trim() : env[name]) || undefined),
  };
}

export interface NumberDeclaration extends Declaration {
  /** A smaller value is raised to this. */
  min?: number;
  /** A larger value is lowered to this. */
  max?: number;
  /** A fraction is rounded to a whole number. */
  round?: boolean;
  /** Zero or less counts as unset. */
  positive?: boolean;
  /** Shown beside the default: 'ms', 's', 'bytes'. */
  unit?: string;
}

function numberDefaultText(fallback: number | undefined, { min, max, positive, unit }: NumberDeclaration): string {
  const bounds = [
    min !== undefined && max !== undefined ? `from ${code(min)} to ${code(max)}` : undefined,
    min !== undefined && max === undefined ? `at least ${code(min)}` : undefined,
    max !== undefined && min === undefined ? `at most ${code(max)}` : undefined,
    positive ? `above ${code(0)}` : undefined,
  ].filter((bound) => bound !== undefined);
  const value = fallback === undefined ? NONE : unit ? `${code(fallback)} ${unit}` : code(fallback);
  return [value, ...bounds].join(', ');
}

/** A number: one that cannot be read gives the default (without one, undefined: the caller computes it). */
export function number(name: string, declaration: NumberDeclaration & { default: number }): Variable<number>;
export function number(name: string, declaration: NumberDeclaration): Variable<number | undefined>;
export function number(name: string, declaration: NumberDeclaration & { default?: number }): Variable<number | undefined> {
  const { default: fallback, min = -Infinity, max = Infinity, round = false, positive = false } = declaration;
  return declare(name, declaration, numberDefaultText(fallback, declaration), (text) => {
    const value = text === undefined ? Number.NaN : Number(text);
    if (!Number.isFinite(value) || (positive && value <= 0)) return fallback;
    return Math.min(max, Math.max(min, round ? Math.round(value) : value));
  });
}

/** A count: a positive whole number, anything else a mistake said at start (undefined when unset: the caller's default). */
export function count(name: string, declaration: Declaration): Variable<number | undefined> {
  return declare(name, declaration, NONE, (text) => {
    if (text === undefined) return undefined;
    const value = Number(text);
    if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${text}`);
    return value;
  });
}

/**
 * A switch: `true` or `false`; any other text is the default. Without a default it is undefined unless set,
 * for a default the caller computes (the simulator: on with the demo data).
 */
export function flag(name: string, declaration: Declaration & { default: boolean }): Variable<boolean>;
export function flag(name: string, declaration: Declaration): Variable<boolean | undefined>;
export function flag(name: string, declaration: Declaration & { default?: boolean }): Variable<boolean | undefined> {
  const fallback = declaration.default;
  return declare(name, declaration, fallback === undefined ? NONE : code(String(fallback)), (text) =>
    text === 'true' ? true : text === 'false' ? false : fallback,
  );
}

export interface TextDeclaration extends Declaration {
  /** A secret (a password): taken with its spaces. */
  untrimmed?: boolean;
}

/** Text as it is given. */
export function text(name: string, declaration: TextDeclaration & { default: string }): Variable<string>;
export function text(name: string, declaration: TextDeclaration): Variable<string | undefined>;
export function text(name: string, declaration: TextDeclaration & { default?: string }): Variable<string | undefined> {
  const fallback = declaration.default;
  return declare(name, declaration, fallback ? code(fallback) : NONE, (value) => value ?? fallback, !declaration.untrimmed);
}

/** One of a few words; any other text is the default. */
export function oneOf<const C extends readonly string[]>(
  name: string,
  choices: C,
  declaration: Declaration & { default: C[number] },
): Variable<C[number]> {
  const isChoice = (text: string | undefined): text is C[number] => choices.includes(text ?? '');
  return declare(name, declaration, code(declaration.default), (text) => (isChoice(text) ? text : declaration.default));
}

/** Comma-separated names, blanks dropped; empty when unset. */
export function list(name: string, declaration: Declaration): Variable<string[]> {
  return declare(name, declaration, NONE, (text) =>
    (text ?? '')
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== ''),
  );
}

type Variables = Record<string, Variable<unknown>>;
export type ValuesOf<V extends Variables> = { [K in keyof V]: V[K] extends Variable<infer T> ? T : never };

/** An area's variables: a section of the page (its title, prose before and after the table). */
export interface VariableGroup<V extends Variables = Variables> {
  readonly title: string;
  readonly intro?: string;
  readonly notes?: string;
  readonly variables: V;
  /** Every variable of the group, read from `env`. */
  read(env?: Environment): ValuesOf<V>;
}

export function group<V extends Variables>(title: string, variables: V, prose: { intro?: string; notes?: string } = {}): VariableGroup<V> {
  return {
    title,
    ...prose,
    variables,
    read: (env = process.env) =>
      Object.fromEntries(Object.entries(variables).map(([key, variable]) => [key, variable.read(env)])) as ValuesOf<V>,
  };
}
