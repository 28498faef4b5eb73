import { group, number, oneOf, text, type Environment } from '../configuration/variables';

/** How the server processes of one installation reach each other (docs/deployment.md, "several machines"). */
export const busVariables = group('Several processes', {
  busUrl: text('BUS_URL', {
    meaning:
      "the bus between server processes, a Redis server (`redis://host:6379`, `rediss://` with TLS, a password as `redis://:secret@host`): live positions, cache invalidations, map stream moves and the live timetable's acknowledgements reach every process at once. Unset: the process is alone (the embedded default)",
  }),
  busPrefix: text('BUS_PREFIX', {
    defaultText: '`tc:<database name>`',
    meaning: "prefix of the bus's channels: the processes of one installation share it, two installations on one Redis keep apart",
  }),
  leaseTtlS: number('LEASE_TTL_S', {
    default: 10,
    min: 2,
    unit: 's',
    meaning:
      "how long a singleton job's lease (PostgreSQL, `app.lease`) lasts unrenewed; renewed every quarter of it. A process that dies without letting go has its jobs taken over within this and a quarter more",
  }),
  geoFanout: oneOf('GEO_FANOUT', ['none', 'redis'], {
    default: 'none',
    meaning: 'older name: `redis` with `GEO_REDIS_URL` is `BUS_URL` (when that is unset)',
  }),
  geoRedisUrl: text('GEO_REDIS_URL', { default: 'redis://127.0.0.1:6379', meaning: "older name: the bus's Redis with `GEO_FANOUT=redis`" }),
});

export interface BusConfig {
  /** The bus's Redis; undefined: this process alone. */
  busUrl?: string;
  busPrefix: string;
  leaseTtlMs: number;
}

export function busConfig(env: Environment = process.env): BusConfig {
  const v = busVariables.read(env);
  const databaseUrl = env.DATABASE_URL?.trim();
  // processes of one installation share a database: its name keeps two installations on one Redis apart
  const database = databaseUrl ? new URL(databaseUrl).pathname.slice(1) : '';
  return {
    busUrl: v.busUrl ?? (v.geoFanout === 'redis' ? v.geoRedisUrl : undefined),
    busPrefix: v.busPrefix ?? (database ? `tc:${database}` : 'tc'),
    leaseTtlMs: v.leaseTtlS * 1000,
  };
}
