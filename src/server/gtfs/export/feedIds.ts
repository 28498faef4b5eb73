import type { Queryable } from '../../db/types';

/** What an external key keeps beside the id (see 118_gtfs.sql): a stop's code and station, a route's agency, type, colour. */
export interface KeyExtra {
  code?: string;
  station?: { id: string; name: string; lat: number; lon: number } | null;
  agency?: string;
  type?: number;
  color?: string;
  url?: string;
  timezone?: string;
  lang?: string;
}

/** One kind of record's ids in a feed: the GTFS id a record was imported under, else our own id. */
export class FeedIds {
  private readonly byLocal = new Map<number, { id: string; extra: KeyExtra | null }>();
  private readonly taken = new Set<string>();

  constructor(rows: readonly { gtfs_id: string; local_id: number; extra: KeyExtra | null }[]) {
    // Several GTFS ids may name one record (a feed re-keyed it): the first in id order speaks for it.
    for (const row of rows) {
      if (!row.gtfs_id || this.byLocal.has(row.local_id)) continue;
      this.byLocal.set(row.local_id, { id: row.gtfs_id, extra: row.extra });
      this.taken.add(row.gtfs_id);
    }
  }

  /** The record's id in the feed; our id when it has no GTFS one ('_' before it when a GTFS id of another record is the same text). */
  of(localId: number): string {
    const known = this.byLocal.get(localId);
    if (known) return known.id;
    const own = String(localId);
    return this.taken.has(own) ? `_${own}` : own;
  }

  extra(localId: number): KeyExtra | null {
    return this.byLocal.get(localId)?.extra ?? null;
  }

  /** The GTFS id the record was imported under, if it was. */
  imported(localId: number): string | undefined {
    return this.byLocal.get(localId)?.id;
  }
}

export type KeyKind = 'agency' | 'stop' | 'route' | 'variant';

/** The external keys of the kinds the feed's ids come from. */
export async function loadFeedIds(db: Queryable, kinds: readonly KeyKind[]): Promise<Record<KeyKind, FeedIds>> {
  const rows = await db.query<{ kind: KeyKind; gtfs_id: string; local_id: number; extra: KeyExtra | null }>(
    'select kind, gtfs_id, local_id, extra from gtfs.external_key where kind = any($1::text[]) order by kind, gtfs_id',
    [kinds],
  );
  const result = {} as Record<KeyKind, FeedIds>;
  for (const kind of ['agency', 'stop', 'route', 'variant'] as const) result[kind] = new FeedIds(rows.filter((r) => r.kind === kind));
  return result;
}

/**
 * The name a timetable variant gives its service: the services it was imported from ('+' between several, as
 * the import's key holds them), else the variant's id. So an exported feed imported again keeps its service ids.
 */
export function serviceToken(variantId: number, routeKey: string, variantKey: string | undefined): string {
  if (variantKey?.startsWith(`${routeKey}|`)) {
    const set = variantKey.slice(routeKey.length + 1).replace(/\|(\*|\d)(\|\d{4}-\d{2}-\d{2})?$/, '');
    if (set) return set;
  }
  return String(variantId);
}

const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}${String(minutes % 60).padStart(2, '0')}`;

/**
 * A race's trip id: route, service, direction and first departure ("83-1-A0735"), `-2`, `-3` … for further
 * races with the same ones. Built from what an import keeps (not from exit numbers, which an import renumbers),
 * so a round trip keeps it; the GTFS-Realtime feed names the race a vehicle runs by the same rule.
 */
export function tripBaseId(routeKey: string, token: string, raceType: string, firstMinute: number): string {
  return `${routeKey}-${token}-${raceType}${hhmm(firstMinute)}`;
}

/** Makes ids unique in the given order: the first keeps its id, the next ones get `-2`, `-3` … */
export function uniqueIds(bases: readonly string[]): string[] {
  const seen = new Map<string, number>();
  const used = new Set(bases);
  return bases.map((base) => {
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    if (n === 1) return base;
    let k = n;
    while (used.has(`${base}-${k}`)) k++;
    used.add(`${base}-${k}`);
    return `${base}-${k}`;
  });
}
