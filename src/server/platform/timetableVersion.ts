import type { Queryable } from '../db/types';

/**
 * What a day's plan is made from, as two fingerprints: the network (stops, trips, routes, vehicles, GTFS imports)
 * and the day's timetable and assignments (variants, times, holidays, the day's tasks and replacements). The simulator and
 * the live timetable each hold a day built from these and build it again when a fingerprint changes: a GTFS
 * import or a handbook edit reaches them within their next check, in every process, with no message between them.
 */
export interface TimetableVersion {
  network: string;
  day: string;
}

export const sameTimetable = (a: TimetableVersion | null, b: TimetableVersion): boolean =>
  a !== null && a.network === b.network && a.day === b.day;

/**
 * The edit counters (migration 146: every statement on those tables draws a number, an edit in place too), with
 * the counts and highest ids and the day's tasks hashed whole: a counter is drawn before its transaction commits,
 * and a check between the two reads the data as it was; the counts, ids and hash change only once it is committed.
 */
export async function readTimetableVersion(db: Queryable, date: string): Promise<TimetableVersion> {
  const [row] = await db.query<TimetableVersion>(
    `select concat_ws(':',
              (select last_value from mgt.network_edits),
              (select coalesce(max(id), 0) from gtfs.import_run where status = 'done'),
              (select count(*) from mgt.stops), (select coalesce(max(stop_id), 0) from mgt.stops),
              (select count(*) from mgt.trip), (select coalesce(max(id), 0) from mgt.trip),
              (select count(*) from mgt.vehicles), (select coalesce(max(id), 0) from mgt.vehicles)) as network,
            concat_ws(':',
              (select last_value from mgt.timetable_edits),
              (select count(*) from mgt.rasp_variant), (select coalesce(max(id), 0) from mgt.rasp_variant),
              (select coalesce(max(id), 0) from mgt.rasp_time),
              (select count(*) from mgt.holidays), (select coalesce(max(id), 0) from mgt.holidays),
              (select md5(coalesce(string_agg(concat_ws(',', id, vehicle_id, "RaspVariant_id", graph, smena), ';' order by id), ''))
                 from mgt.vehicle_task where date = $1::date),
              (select md5(coalesce(string_agg(concat_ws(',', id, vehicle_id, replace_vehicle_id, "RaspVariant_id", graph, smena, starttime), ';' order by id), ''))
                 from mgt.replace_vehicle where date = $1::date)) as day`,
    [date],
  );
  return row;
}
