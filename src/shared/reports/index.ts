import { ADAS_REPORTS } from './adas';
import { BC_REPORTS } from './bc';
import { DISPATCH_REPORTS } from './dispatch';
import { EQUIPMENT_REPORTS } from './equipment';
import { JOURNAL_REPORTS } from './journals';
import { PDM_REPORTS } from './pdm';
import { PASSENGER_REPORTS } from './passengers';
import { VIDEO_REPORTS } from './video';
import type { ReportDeclaration } from './types';

export * from './types';

/** Every declared report: the server registers their routes, the console their screens and menu entries. */
export const REPORTS: readonly ReportDeclaration[] = [
  ...JOURNAL_REPORTS,
  ...ADAS_REPORTS,
  ...BC_REPORTS,
  ...VIDEO_REPORTS,
  ...EQUIPMENT_REPORTS,
  ...PDM_REPORTS,
  ...PASSENGER_REPORTS,
  ...DISPATCH_REPORTS,
];

export function reportOf(path: string): ReportDeclaration | undefined {
  return REPORTS.find((report) => path === report.path || path.startsWith(`${report.path}/`));
}
