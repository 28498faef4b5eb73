import { PASSENGER_REPORTS } from '../../shared/reports/passengers';
import { bindReports } from '../reports/reportSource';
import {
  analysisSql,
  classFitSql,
  correspondenceSql,
  dailySql,
  exchangeChartSql,
  exchangeSql,
  importsSql,
  loadProfileSql,
  passageSql,
  paySql,
  registrySql,
  rollingStockSql,
  stopsSql,
  trafficSql,
  turnoverSql,
} from './passengerQueries';

/** The registry's stop visits counted exactly up to this many (a month of a large city is 15,000,000). */
export const REGISTRY_COUNT_CAP = 10_000;

/** The passenger-flow screens and the import history (declarations: src/shared/reports/passengers.ts) on their SQL. */
export const PASSENGER_SOURCES = bindReports(PASSENGER_REPORTS, {
  '/passengers/analysis': { shape: 'summary', select: analysisSql },
  '/passengers/registry': { shape: 'rows', select: registrySql, key: 'id', countCap: REGISTRY_COUNT_CAP },
  '/passengers/passage': { shape: 'summary', select: passageSql, sortSql: { route_name: 'lower(r.route_name)' } },
  '/passengers/stops': { shape: 'summary', select: stopsSql, sortSql: { stop_name: 'lower(r.stop_name)' } },
  '/passengers/pay': { shape: 'summary', select: paySql, sortSql: { name: 'lower(r.name)' } },
  '/passengers/correspondence': { shape: 'summary', select: correspondenceSql },
  '/passengers/passturn/table': { shape: 'summary', select: turnoverSql, sortSql: { name: 'lower(r.name)' } },
  // a rows report: a city's week or month is more rows than a summary may hold (SUMMARY_MAX_ROWS)
  '/passengers/turnstops/table': { shape: 'rows', select: exchangeSql, chart: exchangeChartSql },
  '/passengers/betweenstops/table': { shape: 'summary', select: loadProfileSql },
  '/passengers/rolling-stock': { shape: 'summary', select: rollingStockSql, sortSql: { route_name: 'lower(r.route_name)' } },
  '/passengers/dist-rolling-stock': { shape: 'summary', select: classFitSql, sortSql: { route_name: 'lower(r.route_name)' } },
  '/reports/traffic': { shape: 'summary', select: trafficSql, sortSql: { route_name: 'lower(r.route_name)' } },
  '/passengers/daily-data': { shape: 'summary', select: dailySql, sortSql: { name: 'lower(r.name)' } },
  '/import-data/tickets-validation': { shape: 'rows', select: importsSql, key: 'id' },
});
