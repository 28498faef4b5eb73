import type { ReportFilterValues } from '../../shared/reports/filters';
import { VIDEO_REPORTS } from '../../shared/reports/video';
import { VIDEO_STATUS } from '../../shared/video/statuses';
import { bindReports, type ReportContext, type ReportSource, type ReportSql } from '../reports/reportSource';

/**
 * The video lists' SQL (declarations: src/shared/reports/video.ts), one select over app.video_request with
 * the vehicle's numbers. `status` is the code shown: performed reads as viewed (7) once played.
 */
const SHOWN_STATUS = `(case when r.status = ${VIDEO_STATUS.performed} and r.viewed_at is not null then ${VIDEO_STATUS.viewed} else r.status end)`;

function requestsSource(scope: (context: ReportContext, add: (value: unknown) => string) => string[]): ReportSource {
  return {
    shape: 'rows',
    key: 'id',
    select(filters: ReportFilterValues, context): ReportSql {
      const params: unknown[] = [];
      const add = (value: unknown) => `$${params.push(value)}`;
      const conditions = scope(context, add);
      if (filters.from) conditions.push(`r.created_at >= ${add(filters.from)}::timestamptz`);
      if (filters.to) conditions.push(`r.created_at <= ${add(filters.to)}::timestamptz`);
      if (filters.user) conditions.push(`r.user_id = any(${add(filters.user)}::int[])`);
      if (filters.vehicle) conditions.push(`r.vehicle_id = any(${add(filters.vehicle)}::int[])`);
      if (filters.status) conditions.push(`${SHOWN_STATUS} = any(${add((filters.status as string[]).map(Number))}::int[])`);
      else conditions.push(`r.status <> ${VIDEO_STATUS.deleted}`);
      return {
        text: `select r.id, r.created_at, r.user_id, r.username, r.vehicle_id, v.depot_number, v.state_number,
                      array_to_string(r.cameras, ', ') as cameras, r.period_from, r.period_to,
                      ${SHOWN_STATUS}::text as status, round(r.progress::numeric, 1)::float8 as progress, r.reason,
                      round(r.size_bytes / 1048576.0, 1)::float8 as size_mb
                 from app.video_request r left join mgt.vehicles v on v.id = r.vehicle_id
                where ${conditions.join(' and ')}`,
        params,
      };
    },
  };
}

export const VIDEO_SOURCES = bindReports(VIDEO_REPORTS, {
  '/video/requests': requestsSource(() => []),
  '/video/myrequests': requestsSource((context, add) => [`r.user_id = ${add(context.userId)}`]),
  '/video/archive': requestsSource(() => [`r.status = ${VIDEO_STATUS.performed}`]),
});
