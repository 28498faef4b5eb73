import { Chip, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import type { ExitRun, RunStatus } from '../../shared/dispatch/api';
import { formatClock } from '../../shared/format';
import { useT } from '../../web/i18n/translate';
import { formatDeviation } from '../../web/dispatch/dispatchFormat';

const STATUS_COLOR: Record<RunStatus, 'success' | 'warning' | 'info' | 'error' | 'default'> = {
  performed: 'success',
  partial: 'warning',
  in_progress: 'info',
  not_performed: 'error',
  not_watched: 'default',
  planned: 'default',
  cancelled: 'default',
};
const COLUMNS = [
  'route',
  'exit',
  'shift',
  'race',
  'vehicle',
  'driver',
  'plannedStart',
  'actualStart',
  'startDeviation',
  'plannedEnd',
  'actualEnd',
  'endDeviation',
  'stops',
  'status',
] as const;

/** The runs of the day's exits, each with its plan, its fact from the stored passages, and whether it was performed. */
export function ExitsTable({ runs }: { runs: readonly ExitRun[] }) {
  const t = useT();
  const clock = (value: string | null) => (value ? formatClock(value, { seconds: false }) : '');
  return (
    <Table size="small" data-testid="exits-table">
      <TableHead>
        <TableRow>
          {COLUMNS.map((c) => (
            <TableCell key={c}>{t(`dispatch.columns.${c}`)}</TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {runs.map((r) => (
          <TableRow
            key={`${r.routeId}|${r.graph}|${r.smena}|${r.raceNum}`}
            data-testid="exits-row"
            data-status={r.status}
            data-graph={r.graph}
            data-added={r.added}
            data-handed-over={r.handedOver}
            data-reason={r.reason ?? undefined}
          >
            <TableCell>{r.routeName}</TableCell>
            <TableCell>{r.graph}</TableCell>
            <TableCell>{r.smena}</TableCell>
            <TableCell>{r.raceNum}</TableCell>
            <TableCell>{r.depotNumber ?? ''}</TableCell>
            <TableCell>{r.driver ?? ''}</TableCell>
            <TableCell>{clock(r.plannedStart)}</TableCell>
            <TableCell>{clock(r.actualStart)}</TableCell>
            <TableCell>{formatDeviation(r.startDeviation)}</TableCell>
            <TableCell>{clock(r.plannedEnd)}</TableCell>
            <TableCell>{clock(r.actualEnd)}</TableCell>
            <TableCell>{formatDeviation(r.endDeviation)}</TableCell>
            <TableCell>{`${r.passed} / ${r.stops}`}</TableCell>
            <TableCell>
              <Chip
                size="small"
                color={STATUS_COLOR[r.status]}
                variant={r.status === 'cancelled' ? 'outlined' : 'filled'}
                label={t(`dispatch.statuses.${r.status}`)}
              />
              {r.added && (
                <Chip
                  size="small"
                  color="info"
                  variant="outlined"
                  label={t('dispatch.control.added')}
                  sx={{ ml: 0.5 }}
                  data-testid="exits-added"
                />
              )}
              {r.handedOver && (
                <Chip
                  size="small"
                  variant="outlined"
                  label={t('dispatch.control.kinds.handover')}
                  sx={{ ml: 0.5 }}
                  data-testid="exits-handed-over"
                />
              )}
              {r.reason !== null && (
                <div data-testid="exits-reason" data-reason={r.reason}>
                  {t(`dispatch.reasons.${r.reason}`, { passed: r.passed, stops: r.stops })}
                </div>
              )}
              {r.cancelReason !== null && (
                <div data-testid="exits-cancel-reason">{t('dispatch.control.cancelledBecause', { reason: r.cancelReason })}</div>
              )}
              {r.shiftMinutes !== null && (
                <div data-testid="exits-shift">
                  {t('dispatch.control.shifted', { minutes: r.shiftMinutes > 0 ? `+${r.shiftMinutes}` : String(r.shiftMinutes) })}
                </div>
              )}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
