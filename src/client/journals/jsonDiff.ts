/**
 * The before/after view of a user-action row: the two JSON documents compared leaf by leaf (objects
 * walked by key, arrays and scalars compared whole), giving one line per changed path.
 */
export type DiffKind = 'added' | 'removed' | 'changed' | 'same';

export interface DiffLine {
  /** Dotted path ('permissions./users', 'video.archiveDays'); '' for a whole scalar document. */
  path: string;
  kind: DiffKind;
  before?: unknown;
  after?: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Parses a JSON text the journal may hold as a string; other values pass through. */
export function parseJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (!/^[[{"]/.test(text)) return value;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return value;
  }
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function walk(before: unknown, after: unknown, path: string, out: DiffLine[], keepSame: boolean): void {
  const child = (key: string) => (path ? `${path}.${key}` : key);
  if (before === undefined && after === undefined) return;
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    for (const key of keys) walk(before[key], after[key], child(key), out, keepSame);
  } else if (before === undefined && isObject(after)) {
    for (const key of Object.keys(after).sort()) walk(undefined, after[key], child(key), out, keepSame);
  } else if (after === undefined && isObject(before)) {
    for (const key of Object.keys(before).sort()) walk(before[key], undefined, child(key), out, keepSame);
  } else if (before === undefined) {
    out.push({ path, kind: 'added', after });
  } else if (after === undefined) {
    out.push({ path, kind: 'removed', before });
  } else if (!same(before, after)) {
    out.push({ path, kind: 'changed', before, after });
  } else if (keepSame) {
    out.push({ path, kind: 'same', before, after });
  }
}

/**
 * The lines of a before/after pair: changed, added and removed paths (and, with keepSame, the unchanged
 * ones too). A creation (no before) lists every field as added, a deletion every field as removed.
 */
export function jsonDiff(rawBefore: unknown, rawAfter: unknown, keepSame = false): DiffLine[] {
  const before = parseJson(rawBefore ?? undefined);
  const after = parseJson(rawAfter ?? undefined);
  const out: DiffLine[] = [];
  walk(before === null ? undefined : before, after === null ? undefined : after, '', out, keepSame);
  return out;
}
