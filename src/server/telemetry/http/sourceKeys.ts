import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../../db/types';

/**
 * Credentials of HTTP telemetry sources. A key is `ts_<source id>_<32 random bytes, base64url>`: the id finds
 * the row, the SHA-256 of the whole key is compared in constant time with the stored one. SHA-256 rather
 * than a password hash: the key is 256 random bits (nothing to brute-force) and is checked on every batch.
 */
export interface TelemetrySource {
  id: number;
  name: string;
  /** Peer addresses this source may report; null = any known device. */
  allowedDevices: Set<string> | null;
}

const KEY_PATTERN = /^ts_(\d{1,9})_[A-Za-z0-9_-]{43}$/;
const DUMMY_HASH = createHash('sha256').update('no such source').digest();

export const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');

export function newSourceKey(id: number): string {
  return `ts_${id}_${randomBytes(32).toString('base64url')}`;
}

/** The enabled source the key belongs to, or undefined (unknown, disabled, malformed or wrong key). */
export async function authenticateSource(db: Queryable, key: string | undefined): Promise<TelemetrySource | undefined> {
  const match = key ? KEY_PATTERN.exec(key) : null;
  const presented = createHash('sha256')
    .update(key ?? '')
    .digest();
  const rows = match
    ? await db.query<{ id: number; name: string; key_hash: string; enabled: boolean; allowed_devices: string[] | null }>(
        'select id, name, key_hash, enabled, allowed_devices::text[] as allowed_devices from app.telemetry_source where id = $1',
        [Number(match[1])],
      )
    : [];
  const row = rows[0];
  const stored = row && /^[0-9a-f]{64}$/.test(row.key_hash) ? Buffer.from(row.key_hash, 'hex') : DUMMY_HASH;
  // Compared even when there is no row, so timing does not tell which source ids exist.
  const equal = timingSafeEqual(presented, stored);
  if (!row || !equal || !row.enabled) return undefined;
  return { id: row.id, name: row.name, allowedDevices: row.allowed_devices ? new Set(row.allowed_devices) : null };
}

/** Creates a source and returns its key: the only time the key exists in clear. */
export async function createSource(db: Queryable, name: string, allowedDevices: string[] | null): Promise<{ id: number; key: string }> {
  const [{ id }] = await db.query<{ id: number }>(
    `insert into app.telemetry_source (name, key_hash, allowed_devices) values ($1, '', $2) returning id`,
    [name, allowedDevices],
  );
  const key = newSourceKey(id);
  await db.query('update app.telemetry_source set key_hash = $2 where id = $1', [id, hashKey(key)]);
  return { id, key };
}
