import type { RouteAccess } from '../http/access';
import { fail } from '../http/errors';

/** Every map call reads the current map (spec §6: /map/currentData, read), and vanishes with the map module. */
export const MAP_READ = { access: { path: '/map/currentData', action: 'read' }, module: 'map' } as const satisfies RouteAccess;

/** "1,2,3": at most `max` positive ids (the schema pattern has already checked the shape). */
export function parseIds(text: string, max: number): number[] {
  const ids = [...new Set(text.split(',').filter(Boolean).map(Number))];
  if (ids.some((id) => !Number.isInteger(id) || id <= 0 || id > 2_147_483_647))
    throw fail(400, 'bad_request', 'ids must be positive integers');
  if (ids.length > max) throw fail(400, 'bad_request', `at most ${max} ids`);
  return ids;
}

export const IDS_SCHEMA = { type: 'string', pattern: '^\\d{1,10}(,\\d{1,10})*$', maxLength: 11_000 } as const;
const NUMBER = '-?\\d{1,3}(\\.\\d{1,12})?';
export const BBOX_SCHEMA = { type: 'string', pattern: `^${NUMBER},${NUMBER},${NUMBER},${NUMBER}$`, maxLength: 80 } as const;
export { idParams as ID_PARAMS } from '../http/pathIds';

/** "south,west,north,east" → [south, west, north, east]; refuses swapped or out-of-range corners. */
export function parseBbox(text: string): [number, number, number, number] {
  const [south, west, north, east] = text.split(',').map(Number);
  const latOk = (v: number) => v >= -90 && v <= 90;
  const lonOk = (v: number) => v >= -180 && v <= 180;
  if (![south, north].every(latOk) || ![west, east].every(lonOk)) throw fail(400, 'bad_request', 'bbox out of range');
  if (south > north || west > east) throw fail(400, 'bad_request', 'bbox must be south,west,north,east');
  return [south, west, north, east];
}

/** A LIKE pattern matching `text` anywhere, its own wildcards taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Appends `value` to the list under `key`. */
export function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
