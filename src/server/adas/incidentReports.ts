import { ADAS_REPORTS } from '../../shared/reports/adas';
import { bindReports } from '../reports/reportSource';
import { detailingSql, distributionSql, dynamicsSql } from './incidentQueries';

/** The ADAS report screens (declarations: src/shared/reports/adas.ts) on the SQL shared with /api/v1/adas/*. */
export const ADAS_SOURCES = bindReports(ADAS_REPORTS, {
  '/adas/incidents-dynamic': { shape: 'summary', select: dynamicsSql },
  '/adas/incidents-distribution': { shape: 'summary', select: distributionSql, sortSql: { route_name: 'lower(r.route_name)' } },
  '/adas/incidents-detailing': { shape: 'summary', select: detailingSql, sortSql: { depot_name: 'lower(r.depot_name)' } },
});
