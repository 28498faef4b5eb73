import { PDM_REPORTS } from '../../shared/reports/pdm';
import { bindReports } from '../reports/reportSource';
import { chartSql, equipmentStatusSql, heatSql, nodeJournalSql, serviceSql, vehicleDiagnosticSql } from './pdmQueries';

const byPath = { node_path: 'lower(r.node_path)' };

/** The PDM report screens (declarations: src/shared/reports/pdm.ts) on their SQL (pdmQueries.ts). */
export const PDM_SOURCES = bindReports(PDM_REPORTS, {
  '/pdm/heatmap': { shape: 'summary', select: heatSql },
  '/pdm/vehicle-diagnostic-report': { shape: 'summary', select: vehicleDiagnosticSql, sortSql: byPath },
  '/pdm/change-node-journal': { shape: 'rows', select: nodeJournalSql, key: 'id', sortSql: byPath },
  '/pdm/charts': { shape: 'summary', select: chartSql },
  '/pdm/service': { shape: 'summary', select: serviceSql, sortSql: byPath },
  '/pdm/equipment-status-report': { shape: 'summary', select: equipmentStatusSql, sortSql: byPath },
});
