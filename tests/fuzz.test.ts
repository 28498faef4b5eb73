import fc from 'fast-check';
import type { FastifySchema } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isErrorCode } from '../src/shared/errors';
import { HANDBOOKS } from '../schemas/index';
import { HANDBOOK_SECTIONS_ON } from '../src/shared/modules';
import { columnsOf } from '../src/shared/handbooks/fields';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { tableChecksums } from './helpers/checksums';
import { loadConfig } from '../src/server/config';

/**
 * The API fuzzer: bad requests generated from every route's own JSON schema, sent through
 * buildApp() as the administrator (so permission checks pass) and now and then with no token. Every
 * answer must be an HTTP answer below 500; a 400 carries a catalogue code; a refused request leaves
 * the handbook and platform tables exactly as they were (checksums before and after each route's batch).
 * A fixed seed keeps runs reproducible; FUZZ_RUNS (total requests per engine, default 1500) sizes a
 * nightly run (FUZZ_RUNS=20000), FUZZ_SEED another seed.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 1500);
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);

/** Routes the fuzzer leaves alone: ending the admin's own session, and endless event streams. */
const SKIPPED = [/^GET \/api\/v1\/auth\/logout$/, /^POST \/api\/v1\/auth\/logout$/, /^GET \/geoapi\//];

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  additionalProperties?: boolean | JsonSchema;
  content?: Record<string, { schema: JsonSchema }>;
};

const typesOf = (schema: JsonSchema): string[] => [schema.type ?? []].flat();

/** The smallest value a schema accepts: the base every mutation starts from. */
function sample(schema: JsonSchema | undefined): unknown {
  if (!schema) return undefined;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum) return schema.enum[0];
  const alternative = schema.anyOf ?? schema.oneOf;
  if (alternative) return sample(alternative.find((s) => !typesOf(s).includes('null')) ?? alternative[0]);
  const type = typesOf(schema).find((t) => t !== 'null') ?? (schema.properties ? 'object' : undefined);
  switch (type) {
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((name) => [name, sample(schema.properties?.[name]) ?? 'a']));
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sample(schema.items));
    case 'string':
      return 'a'.repeat(Math.max(schema.minLength ?? 1, 1));
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    default:
      return undefined;
  }
}

/** Every property path of an object schema (nested objects and array items too), with its schema. */
function leaves(
  schema: JsonSchema | undefined,
  prefix: (string | number)[] = [],
  depth = 0,
): { path: (string | number)[]; schema: JsonSchema }[] {
  if (!schema || depth > 3) return [];
  const out: { path: (string | number)[]; schema: JsonSchema }[] = [];
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    out.push({ path: [...prefix, name], schema: child });
    out.push(...leaves(child, [...prefix, name], depth + 1));
  }
  if (schema.items) out.push(...leaves(schema.items, [...prefix, 0], depth + 1));
  return out;
}

function setAt(target: unknown, path: (string | number)[], value: unknown): unknown {
  if (!path.length) return value;
  const [head, ...rest] = path;
  const container = (
    typeof target === 'object' && target !== null ? structuredClone(target) : typeof head === 'number' ? [] : {}
  ) as Record<string | number, unknown>;
  container[head] = setAt(container[head], rest, value);
  return container;
}

const WRONG_TYPES: Record<string, unknown[]> = {
  string: [12, true, null, [], {}],
  integer: ['12', true, 1.5, null, [], {}, '1e3'],
  number: ['1.5', true, null, [], {}],
  boolean: ['false', 0, 1, null, 'true', []],
  object: ['x', 1, [], null, true],
  array: ['x', 1, {}, null],
};
const HOSTILE_TEXT = [
  'a\u0000b',
  '\u0001\u001f\u007f',
  '\ud800',
  "'; drop table mgt.stops; --",
  '%_\\',
  '${x}{{x}}',
  '\u202e\ufeff',
  '../../etc/passwd',
];
/** Numbers beyond every column: raw JSON so that 2^63 and more survive as written. */
const OUT_OF_RANGE = [
  '2147483648',
  '-2147483649',
  '9223372036854775808',
  '92233720368547758070',
  '1e308',
  '-1e308',
  '1.7976931348623157e309',
  '0.0000001',
  '-1',
];

/**
 * Values no handbook column holds, for the bodies whose schema leaves them open (filters, rows, look-ups):
 * the handbook is named, a column of it picked, and one of these put in a filter, the row or a choice.
 */
const HANDBOOK_JUNK: unknown[] = [
  2147483648,
  -2147483649,
  9.3e18,
  1e308,
  'abc',
  '2024-13-45',
  '1 2',
  '31.02.2024',
  '99:99',
  'a\u0000b',
  'Я'.repeat(5000),
  { from: 'x', to: 1e308 },
  { from: '2024-01-01', to: 'later' },
  [1e308, 'x', null],
  { a: { b: 1 } },
  [[1]],
  true,
  -1,
  '',
  ' ',
  'POLYGON((',
  '#GGGGGG',
  '999.999.999.999',
  '\ud800',
];

type Mutation =
  | { kind: 'handbookValue'; type: number; column: number; value: number; where: number }
  | { kind: 'missing'; pick: number }
  | { kind: 'extra'; pick: number }
  | { kind: 'wrongType'; pick: number; value: number }
  | { kind: 'outOfRange'; pick: number; value: number }
  | { kind: 'tooLong'; pick: number }
  | { kind: 'hostileText'; pick: number; value: number }
  | { kind: 'malformedJson'; cut: number }
  | { kind: 'lyingLength'; delta: number }
  | { kind: 'badPath'; value: number };

const GENERIC: fc.Arbitrary<Mutation>[] = [
  fc.record({ kind: fc.constant('missing' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('extra' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('wrongType' as const), pick: fc.nat(), value: fc.nat() }),
  fc.record({ kind: fc.constant('outOfRange' as const), pick: fc.nat(), value: fc.nat() }),
  fc.record({ kind: fc.constant('tooLong' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('hostileText' as const), pick: fc.nat(), value: fc.nat() }),
  fc.record({ kind: fc.constant('malformedJson' as const), cut: fc.nat() }),
  fc.record({ kind: fc.constant('lyingLength' as const), delta: fc.integer({ min: -20, max: 200 }).filter((d) => d !== 0) }),
  fc.record({ kind: fc.constant('badPath' as const), value: fc.nat() }),
];
const HANDBOOK_VALUE: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constant('handbookValue' as const),
  type: fc.nat(),
  column: fc.nat(),
  value: fc.nat(),
  where: fc.nat(),
});

/** A route whose open-ended body names a handbook (filters, rows, look-ups): the fuzzer's main target. */
function namesHandbook(schema: FastifySchema | undefined): boolean {
  const body = (schema as { body?: JsonSchema } | undefined)?.body;
  const properties = (body?.content?.['application/json']?.schema ?? body)?.properties ?? {};
  return 'config' in properties || ('schema' in properties && 'table' in properties);
}

/** The mutations of a route: a route naming a handbook gets mostly handbook values. */
function mutationsFor(schema: FastifySchema | undefined): fc.Arbitrary<Mutation> {
  return namesHandbook(schema)
    ? fc.oneof({ arbitrary: HANDBOOK_VALUE, weight: GENERIC.length * 2 }, ...GENERIC.map((arbitrary) => ({ arbitrary, weight: 1 })))
    : fc.oneof(...GENERIC);
}

const BAD_PATH_VALUES = ['abc', '2147483648', '-1', '1e3', '%00', '99999999999999999999', '0x10', '%27', 'a'.repeat(300)];
/** A path parameter that is valid but names nothing, for mutations aimed elsewhere (never a real row). */
const ABSENT_ID = '2147483647';

interface Request {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

/** One bad request for a route, from its schema and a mutation. */
function badRequest(route: { method: string; url: string; schema?: FastifySchema }, m: Mutation): Request {
  const schema = (route.schema ?? {}) as { body?: JsonSchema; querystring?: JsonSchema };
  const bodySchema = schema.body?.content?.['application/json']?.schema ?? schema.body;
  const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
  const target = hasBody ? bodySchema : schema.querystring;
  let value: unknown = sample(target) ?? (hasBody ? {} : undefined);
  let raw: string | undefined;
  const headers: Record<string, string> = {};
  const fields = leaves(target);
  const field = fields.length ? fields[('pick' in m ? m.pick : 0) % fields.length] : undefined;
  const pathValue = m.kind === 'badPath' ? BAD_PATH_VALUES[m.value % BAD_PATH_VALUES.length] : ABSENT_ID;

  switch (m.kind) {
    case 'missing': {
      const required = target?.required ?? [];
      if (required.length && typeof value === 'object' && value !== null)
        delete (value as Record<string, unknown>)[required[m.pick % required.length]];
      else value = undefined;
      break;
    }
    case 'extra':
      value = setAt(value, [...(field?.path.slice(0, -1) ?? []), `fuzz_${m.pick % 7}`], { nested: ['x'] });
      break;
    case 'wrongType': {
      const declared = field ? (typesOf(field.schema)[0] ?? 'string') : 'object';
      const choices = WRONG_TYPES[declared] ?? WRONG_TYPES.string;
      value = setAt(value, field?.path ?? [], choices[m.value % choices.length]);
      break;
    }
    case 'outOfRange': {
      const marker = '"__number__"';
      raw = JSON.stringify(setAt(value, field?.path ?? ['n'], '__number__')).replace(marker, OUT_OF_RANGE[m.value % OUT_OF_RANGE.length]);
      break;
    }
    case 'tooLong': {
      const limit = field?.schema.maxLength;
      value = setAt(value, field?.path ?? ['s'], 'Я'.repeat(limit !== undefined ? limit + 1 : 100_000));
      break;
    }
    case 'hostileText':
      value = setAt(value, field?.path ?? ['s'], HOSTILE_TEXT[m.value % HOSTILE_TEXT.length]);
      break;
    case 'malformedJson': {
      const text = JSON.stringify(value ?? {});
      raw = text.slice(0, m.cut % Math.max(text.length, 1)) || '{';
      break;
    }
    case 'lyingLength':
      raw = JSON.stringify(value ?? {});
      headers['content-length'] = String(Math.max(Buffer.byteLength(raw) + m.delta, 0));
      break;
    case 'badPath':
      break;
    case 'handbookValue': {
      const handbook = HANDBOOKS[HANDBOOK_SECTIONS_ON[m.type % HANDBOOK_SECTIONS_ON.length]];
      const columns = columnsOf(handbook);
      const column = columns[m.column % columns.length].name;
      const junk = HANDBOOK_JUNK[m.value % HANDBOOK_JUNK.length];
      const named = { config: { type: handbook.type }, schema: handbook.table.schema, table: handbook.table.name };
      const properties = bodySchema?.properties ?? {};
      const places = [
        ...('filters' in properties ? [{ filters: { [column]: junk } }, { filters: { q: junk } }, { filters: { [column]: [junk] } }] : []),
        ...('row' in properties ? [{ row: { [column]: junk } }] : []),
        ...('field' in properties
          ? [
              { field: column, values: [junk] },
              { field: column, q: junk },
              { field: column, match: { [column]: junk } },
            ]
          : []),
        ...('ids' in properties ? [{ ids: [junk] }] : []),
        { sort: { field: column, order: junk } },
      ];
      value = { ...(typeof value === 'object' && value !== null ? value : {}), ...named, ...places[m.where % places.length] };
      break;
    }
  }
  const url = route.url.replace(/:\w+/g, pathValue);
  if (!hasBody) {
    const query = new URLSearchParams();
    if (value && typeof value === 'object') {
      for (const [name, item] of Object.entries(value as Record<string, unknown>))
        query.set(name, typeof item === 'string' ? item : JSON.stringify(item));
    }
    const text = query.toString();
    return { method: route.method, url: text ? `${url}?${text}` : url, headers };
  }
  const payload = raw ?? (value === undefined ? undefined : JSON.stringify(value));
  if (payload !== undefined) headers['content-type'] = 'application/json';
  return { method: route.method, url, headers, payload };
}

describe.each(ENGINES)('API fuzzer on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    // every module on, so that the routes of modules off by default (ticket control) are fuzzed too
    t = await startTestApp(engine, { switches: loadConfig({ DEMO_DATA: 'true', LOG_LEVEL: 'silent' }).switches });
    admin = await t.login('admin', 'admin123');
  });
  afterAll(() => t.close());

  it(`answers ${RUNS} bad requests without a 5xx, with catalogue codes, changing nothing`, async () => {
    const routes = t.app.routeAccess.filter((route) => !SKIPPED.some((skip) => skip.test(`${route.method} ${route.url}`)));
    expect(routes.length).toBeGreaterThan(50);
    // Routes naming a handbook get three shares of the runs.
    const shares = routes.reduce((sum, route) => sum + (namesHandbook(route.schema) ? 3 : 1), 0);
    const perShare = Math.max(1, Math.ceil(RUNS / shares));
    const findings: string[] = [];
    let sent = 0;
    const statuses: Record<number, number> = {};
    for (const [index, route] of routes.entries()) {
      const before = await tableChecksums(t.db);
      let accepted = false;
      await fc.assert(
        fc.asyncProperty(mutationsFor(route.schema), fc.nat(9), async (m, anonymous) => {
          const request = badRequest(route, m);
          const authorization = anonymous === 0 ? undefined : admin;
          const where = `${request.method} ${request.url.slice(0, 120)} ${m.kind} ${(request.payload ?? '').slice(0, 120)}`;
          sent += 1;
          const response = await t.app
            .inject({
              method: request.method as 'GET',
              url: request.url,
              headers: { ...request.headers, ...(authorization ? { authorization } : {}) },
              payload: request.payload,
            })
            .catch((error: unknown) => {
              findings.push(`no HTTP answer (${String(error)}): ${where}`);
              return undefined;
            });
          if (!response) return;
          statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
          if (response.statusCode >= 500) findings.push(`${response.statusCode} ${where} ${response.body.slice(0, 200)}`);
          if (response.statusCode < 300) accepted = true;
          if (response.statusCode === 400) {
            const messages = (JSON.parse(response.body) as { messages?: unknown[] }).messages;
            if (!Array.isArray(messages) || typeof messages[0] !== 'string' || !isErrorCode(messages[0]))
              findings.push(`400 without a catalogue code: ${where} ${response.body.slice(0, 200)}`);
          }
        }),
        { seed: SEED + index, numRuns: perShare * (namesHandbook(route.schema) ? 3 : 1), endOnFailure: true },
      );
      // A route that accepted some input may legitimately have written (a settings save with an extra field).
      if (!accepted) {
        const after = await tableChecksums(t.db);
        if (JSON.stringify(after) !== JSON.stringify(before))
          findings.push(
            `${route.method} ${route.url} refused every request yet changed ${Object.keys(after)
              .filter((k) => after[k] !== before[k])
              .join(', ')}`,
          );
      }
    }
    expect(findings).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(RUNS);
    // The inputs are bad: a good share must be refused outright, or the fuzzer tests nothing.
    expect(statuses[400], JSON.stringify(statuses)).toBeGreaterThan(sent / 5);
  }, 1_200_000);
});
