import { lazy } from 'react';
import type { ReportExtensions } from '../reports/reportExtensions';
import { actionKey, objectKey } from './journalFormat';

/** The journals' parts of the report scaffold: a journaled change's diff under its row, the action and object cells. */
export const journalReportParts: Partial<ReportExtensions> = {
  expands: {
    userActionDiff: {
      view: lazy(() => import('./UserActionDiff').then((m) => ({ default: m.UserActionDiff }))),
      opens: (row) => row.before != null || row.after != null || row.request != null,
    },
  },
  cells: {
    action: (value, _row, translate) => {
      const key = actionKey(String(value));
      return key ? translate(key, { _: String(value) }) : String(value);
    },
    object: (value, row, translate) => {
      const kind = objectKey(String(value));
      const name = kind ? translate(kind.key, { _: String(value) }) : String(value);
      const sub = kind?.sub ? `: ${translate(`menu.system.${kind.sub}`, { _: kind.sub })}` : '';
      const id = row.object_id != null ? ` № ${String(row.object_id)}` : '';
      return `${name}${sub}${id}`;
    },
  },
};
