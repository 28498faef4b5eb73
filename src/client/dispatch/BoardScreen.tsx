import { useState } from 'react';
import { Box, Paper, Stack, Typography } from '@mui/material';
import { Title } from 'react-admin';
import { useSearchParams } from 'react-router';
import { DISPATCH_RIGHTS_PATH, EXCEPTION_KINDS, type BoardException } from '../../shared/dispatch/api';
import { formatClock } from '../../shared/format';
import { useRights } from '../../web/components/useRights';
import { useT } from '../../web/i18n/translate';
import { BoardAckDialog } from './BoardAckDialog';
import { BoardAlerts } from './BoardAlerts';
import { BoardCounters } from './BoardCounters';
import { BoardTable } from './BoardTable';
import { useBoard, useOptions } from '../../web/dispatch/dispatchApi';
import { idsFrom } from '../../web/dispatch/dispatchFormat';
import { DispatchError } from '../../web/dispatch/DispatchError';
import { DispatchIdSelect } from './DispatchIdSelect';

/**
 * /dispatch/board «Оперативная обстановка» (code 44; acknowledging: code 45): the exceptions of the moment,
 * newest first, read again every few seconds; counters by kind at the top; filters by depot, route and kind kept
 * in the address.
 */
export default function BoardScreen() {
  const t = useT();
  const rights = useRights(DISPATCH_RIGHTS_PATH);
  const [params, setParams] = useSearchParams();
  const filters = {
    depot: idsFrom(params.get('depot')),
    route: idsFrom(params.get('route')),
    kind: (params.get('kind') ?? '').split(',').filter((k) => (EXCEPTION_KINDS as readonly string[]).includes(k)),
  };
  const setFilter = (name: 'depot' | 'route' | 'kind', values: (number | string)[]) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (values.length) next.set(name, values.join(','));
        else next.delete(name);
        return next;
      },
      { replace: true },
    );
  const board = useBoard(filters);
  const options = useOptions();
  const [acknowledging, setAcknowledging] = useState<BoardException | null>(null);

  return (
    <Box sx={{ p: 2 }} data-testid="dispatch-board">
      <Title title={t('menu.dispatch.board')} />
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <DispatchIdSelect
          label={t('dispatch.filters.depot')}
          options={options.data?.depots ?? []}
          value={filters.depot}
          onChange={(ids) => setFilter('depot', ids)}
          testId="board-filter-depot"
        />
        <DispatchIdSelect
          label={t('dispatch.filters.route')}
          options={options.data?.routes ?? []}
          value={filters.route}
          onChange={(ids) => setFilter('route', ids)}
          testId="board-filter-route"
        />
        <Box sx={{ flex: 1 }} />
        {board.dataUpdatedAt > 0 && (
          <Typography variant="caption" color="text.secondary">
            {t('dispatch.board.updated', { at: formatClock(board.dataUpdatedAt) })}
          </Typography>
        )}
      </Stack>
      {board.data && <BoardCounters counters={board.data.counters} kinds={filters.kind} onKinds={(kinds) => setFilter('kind', kinds)} />}
      <BoardAlerts />
      <DispatchError error={board.error ?? options.error} />
      <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
        {board.data && board.data.list.length > 0 && (
          <BoardTable rows={board.data.list} mayAcknowledge={rights.update} onAcknowledge={setAcknowledging} />
        )}
        {board.data && board.data.list.length === 0 && (
          <Typography sx={{ p: 2 }} color="text.secondary" data-testid="board-empty">
            {t('dispatch.board.empty')}
          </Typography>
        )}
      </Paper>
      {acknowledging && <BoardAckDialog exception={acknowledging} onClose={() => setAcknowledging(null)} />}
    </Box>
  );
}
