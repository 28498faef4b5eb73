import { Button, Chip, Stack, Table, TableBody, TableCell, TableHead, TableRow, Tooltip, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import type { BoardException } from '../../shared/dispatch/api';
import { formatClock } from '../../shared/format';
import { useT } from '../../web/i18n/translate';
import { formatDeviation, formatDuration } from '../../web/dispatch/dispatchFormat';

const KIND_COLOR: Partial<Record<BoardException['kind'], 'error' | 'warning' | 'info'>> = {
  late: 'error',
  early: 'info',
  off_route: 'error',
  no_signal: 'warning',
  exit_not_started: 'error',
  run_not_performed: 'error',
  bunching: 'warning',
  gap: 'warning',
  driver_message: 'info',
};

/** What the exception measures, in its own unit: a deviation, a headway, metres off the route, a silence. */
function measure(e: BoardException): string {
  if (e.note !== null) return e.note;
  if (e.value === null) return '';
  if (e.kind === 'off_route') return `${Math.round(e.value)} м`;
  if (e.kind === 'late' || e.kind === 'early') return '';
  return formatDuration(e.value);
}

/** The board's rows, newest first: each opens its vehicle on the map or its route on the line diagram, and may be acknowledged. */
export function BoardTable({
  rows,
  mayAcknowledge,
  onAcknowledge,
}: {
  rows: readonly BoardException[];
  mayAcknowledge: boolean;
  onAcknowledge: (row: BoardException) => void;
}) {
  const t = useT();
  return (
    <Table size="small" data-testid="board-table">
      <TableHead>
        <TableRow>
          {(['kind', 'vehicle', 'route', 'exit', 'driver', 'deviation', 'since', 'ack', 'actions'] as const).map((c) => (
            <TableCell key={c}>{t(`dispatch.columns.${c}`)}</TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map((e) => (
          <TableRow
            key={e.key}
            data-testid="board-row"
            data-kind={e.kind}
            data-vehicle-id={e.vehicleId ?? ''}
            data-acknowledged={e.acknowledged ? 'true' : 'false'}
            sx={{ opacity: e.acknowledged ? 0.6 : 1 }}
          >
            <TableCell>
              <Chip size="small" color={KIND_COLOR[e.kind]} label={t(`dispatch.kinds.${e.kind}`)} /> {measure(e)}
            </TableCell>
            <TableCell>
              {e.depotNumber ?? ''}
              {e.stateNumber ? ` (${e.stateNumber})` : ''}
            </TableCell>
            <TableCell>{e.routeName ?? ''}</TableCell>
            <TableCell>{e.graph === null ? '' : `${e.graph} / ${e.raceNum ?? ''}`}</TableCell>
            <TableCell>{e.driver ?? ''}</TableCell>
            <TableCell data-testid="board-deviation">{formatDeviation(e.deviation)}</TableCell>
            <TableCell>{formatClock(e.since)}</TableCell>
            <TableCell>
              {e.acknowledged && (
                <Tooltip title={e.acknowledged.comment}>
                  <Typography variant="caption" data-testid="board-ack">
                    {t('dispatch.board.ackBy', { user: e.acknowledged.username ?? '', at: formatClock(e.acknowledged.at) })}
                    {e.acknowledged.comment ? `: ${e.acknowledged.comment}` : ''}
                  </Typography>
                </Tooltip>
              )}
            </TableCell>
            <TableCell>
              <Stack direction="row" spacing={0.5}>
                {e.vehicleId !== null && (
                  <Button size="small" component={RouterLink} to={`/map?vehicle=${e.vehicleId}`}>
                    {t('dispatch.board.onMap')}
                  </Button>
                )}
                {e.routeId !== null && (
                  <Button
                    size="small"
                    component={RouterLink}
                    to={`/dispatch/lines?routes=${e.routeId}${e.vehicleId !== null ? `&vehicle=${e.vehicleId}` : ''}`}
                  >
                    {t('dispatch.board.onLine')}
                  </Button>
                )}
                {mayAcknowledge && !e.acknowledged && (
                  <Button size="small" variant="outlined" onClick={() => onAcknowledge(e)} data-testid="board-ack-open">
                    {t('dispatch.board.acknowledge')}
                  </Button>
                )}
              </Stack>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
