import type { ReportFilterValues } from '../../shared/reports/filters';
import { EQUIPMENT_REPORTS } from '../../shared/reports/equipment';
import { bindReports, type ReportContext, type ReportSql } from '../reports/reportSource';

/** egtsEquipmentDataMaxAge (seconds) as the stored settings say, else its default. */
export const MAX_AGE_SQL = `(select coalesce((value->>'egtsEquipmentDataMaxAge')::int, 300) from app.settings where id = 1)`;

/** A unit's state (src/shared/equipment/units.ts unitState) in SQL, over u (mnt.unit) and s (mnt.unit_state). */
export const UNIT_STATE_SQL = `(case when u.disabled then 'off' when cardinality(coalesce(s.fault_codes, '{}')) > 0 then 'fault'
  when s.last_data_at is null then 'noData' when s.last_data_at < now() - ${MAX_AGE_SQL} * interval '1 second' then 'stale' else 'ok' end)`;

/** The user's calendar days of a period filter (from, to as instants). */
const dayOf = (placeholder: string, context: ReportContext) =>
  `((${placeholder}::timestamptz at time zone 'UTC') + ${Math.trunc(context.offsetMinutes)} * interval '1 minute')::date`;

export const EQUIPMENT_SOURCES = bindReports(EQUIPMENT_REPORTS, {
  '/vehicle-work-data': {
    shape: 'rows',
    key: 'row_key',
    select(filters: ReportFilterValues, context): ReportSql {
      const params: unknown[] = [];
      const add = (value: unknown) => `$${params.push(value)}`;
      const where = ['true'];
      if (filters.from) where.push(`w.day >= ${dayOf(add(filters.from), context)}`);
      if (filters.to) where.push(`w.day <= ${dayOf(add(filters.to), context)}`);
      if (filters.depot) where.push(`v.depot_id = any(${add(filters.depot)}::int[])`);
      if (filters.vehicle) where.push(`w.vehicle_id = any(${add(filters.vehicle)}::int[])`);
      return {
        text: `select w.day::text || ':' || w.vehicle_id as row_key, w.day::text as day, w.vehicle_id, v.depot_number, v.state_number, d.depot_name,
                      w.first_at, w.last_at, round(w.online_s / 3600.0, 2)::float8 as online_h, round(w.km::numeric, 1)::float8 as km,
                      round(w.moving_s / 3600.0, 2)::float8 as moving_h, round(w.standing_s / 3600.0, 2)::float8 as standing_h,
                      w.trips_done, w.trips_planned,
                      case when w.trips_planned > 0 then round(100.0 * w.trips_done / w.trips_planned)::float8 end as trips_share,
                      w.deviations
                 from mnt.vehicle_work_day w join mgt.vehicles v on v.id = w.vehicle_id left join mgt.depot d on d.depot_id = v.depot_id
                where ${where.join(' and ')}`,
        params,
      };
    },
  },
  '/vehicle-diagnostic': {
    shape: 'rows',
    key: 'unit_key',
    select(filters: ReportFilterValues): ReportSql {
      const params: unknown[] = [];
      const add = (value: unknown) => `$${params.push(value)}`;
      const where = ['true'];
      if (filters.state) where.push(`${UNIT_STATE_SQL} = any(${add(filters.state)}::text[])`);
      if (filters.unit) where.push(`u.unit_kind = any(${add(filters.unit)}::text[])`);
      if (filters.depot) where.push(`v.depot_id = any(${add(filters.depot)}::int[])`);
      if (filters.vehicle) where.push(`u.vehicle_id = any(${add(filters.vehicle)}::int[])`);
      return {
        text: `select u.unit_kind || ':' || u.unit_id as unit_key, u.vehicle_id, v.depot_number, v.state_number, d.depot_name, u.unit_kind, u.unit_name,
                      ${UNIT_STATE_SQL} as state, s.last_data_at,
                      floor(extract(epoch from now() - s.last_data_at) / 60)::float8 as data_age_min,
                      nullif(array_to_string(s.fault_codes, ', '), '') as faults, s.fault_since
                 from mnt.unit u join mgt.vehicles v on v.id = u.vehicle_id left join mgt.depot d on d.depot_id = v.depot_id
                 left join mnt.unit_state s on s.vehicle_id = u.vehicle_id and s.unit_kind = u.unit_kind and s.unit_id = u.unit_id
                where ${where.join(' and ')}`,
        params,
      };
    },
  },
});
