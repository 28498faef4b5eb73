import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TripStop } from '../../shared/handbooks/api';
import { HANDBOOKS } from '../../../schemas/index';
import { MSG } from '../../shared/handbooks/messages';
import { validateRow, type FieldErrors } from '../../shared/handbooks/validation';
import { fail } from '../http/errors';
import { FieldsError } from './errorReplies';

/** Stops of one trip per request: far above any real trip, low enough to bound the work. */
export const TRIP_STOPS_MAX = 1000;

/** GET /api/table/tripstops?trip_id=: a trip's stops in order, with stop names. */
export async function readTripStops(app: FastifyInstance, tripId: number): Promise<TripStop[]> {
  const trip = await app.db.query('select 1 from mgt.trip where id = $1', [tripId]);
  if (!trip.length) throw fail(404, 'not_found');
  return app.db.query<TripStop>(
    `select ts.id, ts.stop_id, ts.stop_sequence, ts.kkp, s.stop_name
       from mgt.trip_stops ts left join mgt.stops s on s.stop_id = ts.stop_id
      where ts.trip_id = $1 order by ts.stop_sequence, ts.id`,
    [tripId],
  );
}

/**
 * POST /api/table/tripstops: replaces a trip's stops in one transaction. Each stop passes the Trip_Stops
 * rules (required stop and sequence, kkp in the list); sequences must not repeat; every stop must exist.
 * Errors come back per stop as 'stops.<index>.<field>'.
 */
export async function saveTripStops(app: FastifyInstance, request: FastifyRequest, tripId: number, stops: unknown[]): Promise<TripStop[]> {
  if (stops.length > TRIP_STOPS_MAX) throw fail(400, 'bad_request', `at most ${TRIP_STOPS_MAX} stops`);
  const before = await readTripStops(app, tripId);
  const schema = HANDBOOKS.tripstops;
  const errors: FieldErrors = {};
  const rows: { stop_id: number; stop_sequence: number; kkp: string | null }[] = [];
  const sequences = new Set<number>();
  for (const [i, raw] of stops.entries()) {
    const input = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
    const { value, errors: rowErrors } = validateRow(schema, { ...input, trip_id: tripId });
    for (const [field, message] of Object.entries(rowErrors)) errors[`stops.${i}.${field}`] = message;
    const sequence = value.stop_sequence as number;
    if (!rowErrors.stop_sequence && sequences.has(sequence)) errors[`stops.${i}.stop_sequence`] = MSG.duplicateInFile;
    sequences.add(sequence);
    rows.push({ stop_id: value.stop_id as number, stop_sequence: sequence, kkp: (value.kkp as string | null) ?? null });
  }
  const known = new Set(
    (
      await app.db.query<{ stop_id: number }>('select stop_id from mgt.stops where stop_id = any($1::int[])', [
        rows.map((row) => row.stop_id).filter(Number.isInteger),
      ])
    ).map((row) => row.stop_id),
  );
  rows.forEach((row, i) => {
    if (Number.isInteger(row.stop_id) && !known.has(row.stop_id)) errors[`stops.${i}.stop_id`] ??= MSG.referenceNotFound;
  });
  if (Object.keys(errors).length) throw new FieldsError(['validation_failed'], errors);

  return app.db.transaction(async (tx) => {
    await tx.query('delete from mgt.trip_stops where trip_id = $1', [tripId]);
    if (rows.length) {
      await tx.query(
        `insert into mgt.trip_stops (trip_id, stop_id, stop_sequence, kkp)
         select $1, * from unnest($2::int[], $3::int[], $4::text[])`,
        [tripId, rows.map((row) => row.stop_id), rows.map((row) => row.stop_sequence), rows.map((row) => row.kkp)],
      );
    }
    const after = await tx.query<TripStop>(
      `select ts.id, ts.stop_id, ts.stop_sequence, ts.kkp, s.stop_name
         from mgt.trip_stops ts left join mgt.stops s on s.stop_id = ts.stop_id
        where ts.trip_id = $1 order by ts.stop_sequence, ts.id`,
      [tripId],
    );
    await app.journal.record(request, { action: 'handbook.update', object: 'tripstops', objectId: tripId, before, after }, tx);
    return after;
  });
}
