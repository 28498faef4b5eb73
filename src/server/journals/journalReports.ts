import { JOURNAL_REPORTS } from '../../shared/reports/journals';
import type { ReportFilterValues } from '../../shared/reports/filters';
import { bindReports, type ReportSource, type ReportSql } from '../reports/reportSource';

/**
 * The journals' SQL (their declarations are src/shared/reports/journals.ts): one select per journal over
 * its table, the vehicle's numbers joined in, filtered by period, user or vehicle, and type.
 */

interface JournalSql {
  from: string;
  /** The select list; `id` (float8: a JSON number holds it exactly, unlike pg's int8-as-text) keys the rows. */
  columns: string;
  time: string;
  user?: string;
  vehicle?: string;
  type: { sql: string; cast: 'int' | 'text' };
  /** A condition the switches add (pass errors show in eventsts only while their switch is on). */
  switched?: (sections: Record<string, boolean>) => string | undefined;
}

const vehicleJoin = 'left join mgt.vehicles v on v.id = j.vehicle_id';
const vehicleColumns = 'j.vehicle_id, coalesce(j.depot_number, v.depot_number) as depot_number, v.state_number';

function journalSource(journal: JournalSql, sortSql?: Record<string, string>): ReportSource {
  return {
    shape: 'rows',
    key: 'id',
    sortSql,
    select(filters: ReportFilterValues, { switches }): ReportSql {
      const params: unknown[] = [];
      const conditions: string[] = [];
      const add = (condition: (p: string) => string, value: unknown) => conditions.push(condition(`$${params.push(value)}`));
      if (filters.from) add((p) => `${journal.time} >= ${p}::timestamptz`, filters.from);
      if (filters.to) add((p) => `${journal.time} <= ${p}::timestamptz`, filters.to);
      if (filters.user && journal.user) add((p) => `${journal.user} = any(${p}::int[])`, filters.user);
      if (filters.vehicle && journal.vehicle) add((p) => `${journal.vehicle} = any(${p}::int[])`, filters.vehicle);
      if (filters.type) add((p) => `${journal.type.sql} = any(${p}::${journal.type.cast}[])`, filters.type);
      const switched = journal.switched?.(switches.sections);
      if (switched) conditions.push(switched);
      const where = conditions.length ? `where ${conditions.join(' and ')}` : '';
      return { text: `select ${journal.columns} from ${journal.from} ${where}`, params };
    },
  };
}

const vehicleJournal = (table: string, columns: string, switched?: JournalSql['switched']) =>
  journalSource({
    from: `${table} j ${vehicleJoin}`,
    columns: `j.id::float8 as id, j.at, ${vehicleColumns}, ${columns}`,
    time: 'j.at',
    vehicle: 'j.vehicle_id',
    type: { sql: 'j.kind', cast: 'text' },
    switched,
  });

export const JOURNAL_SOURCES = bindReports(JOURNAL_REPORTS, {
  '/journal/useractions': journalSource(
    {
      from: 'app.user_action j',
      columns:
        'j.id::float8 as id, j.at, j.user_id, j.username, j.page_id, j.action, j.object, j.object_id, j.before, j.after, j.request, j.ip',
      time: 'j.at',
      user: 'j.user_id',
      type: { sql: 'j.action', cast: 'text' },
    },
    { username: 'lower(r.username)' },
  ),
  '/journal/eventsts': vehicleJournal('app.vehicle_event', 'j.kind, j.details', (sections) =>
    sections['journals.passErrors'] === false ? "j.kind <> 'pass_error'" : undefined,
  ),
  '/journal/eventspo': vehicleJournal('app.software_event', 'j.kind, j.severity, j.message, j.details'),
  '/journal/video': vehicleJournal('app.video_event', 'j.kind, j.camera, j.request_id, j.message, j.details'),
  '/journal/adas': journalSource({
    // incident_type is not declared unique in the handbook: the first of each code is joined, never several
    from: `adas.incident_event j ${vehicleJoin}
      left join (select distinct on (incident_type) incident_type, incident_name from adas.incident_type order by incident_type, id) t
        on t.incident_type = j.incident_type
      left join mgt.routes rt on rt.route_id = j.route_id
      left join app.users u on u.id = j.reviewed_by`,
    columns: `j.id::float8 as id, j.tm, ${vehicleColumns}, j.incident_type, t.incident_name,
      j.grade, j.speed, j.lat, j.lon, j.route_id, rt.route_short_name as route_name,
      j.review, j.review_comment, u.username as reviewed_by, j.reviewed_at`,
    time: 'j.tm',
    vehicle: 'j.vehicle_id',
    type: { sql: 'j.incident_type', cast: 'int' },
  }),
});
