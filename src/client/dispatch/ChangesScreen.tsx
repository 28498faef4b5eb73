import { useState } from 'react';
import { Alert, Box, Button, Chip, Paper, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { Title } from 'react-admin';
import { useSearchParams } from 'react-router';
import { DISPATCH_CHANGES_PATH, type ChangeRun, type RunChangeKind, type ServiceChange } from '../../shared/dispatch/control';
import { formatClock } from '../../shared/format';
import { useRights } from '../../web/components/useRights';
import { useT } from '../../web/i18n/translate';
import { AddRunDialog } from './AddRunDialog';
import { ChangeRunDialog } from './ChangeRunDialog';
import { CloseStopDialog } from './CloseStopDialog';
import { DetourDialog } from './DetourDialog';
import { DetourPreview } from './DetourPathField';
import { useChangeRuns, useChanges, useRevokeChange } from './controlApi';
import { useOptions } from '../../web/dispatch/dispatchApi';
import { idsFrom } from '../../web/dispatch/dispatchFormat';
import { DispatchError } from '../../web/dispatch/DispatchError';
import { DispatchIdSelect } from './DispatchIdSelect';

const clock = (value: string | null) => (value ? formatClock(value, { seconds: false }) : '');
/** A closed stop and a detour concern a place for a period, not a run. */
const placeKinds = new Set<ServiceChange['kind']>(['close_stop', 'detour']);

/** The closed stops and detours in force now, as alerts above the day's changes. */
function StopNotices({ changes }: { changes: readonly ServiceChange[] }) {
  const t = useT();
  const now = Date.now();
  const current = changes.filter((c) => placeKinds.has(c.kind) && !c.revokedAt && c.activeTo !== null && Date.parse(c.activeTo) > now);
  if (!current.length) return null;
  const route = (c: ServiceChange) => c.routeName ?? (c.routeId === null ? t('dispatch.control.allRoutesShort') : String(c.routeId));
  return (
    <Stack spacing={1} sx={{ mb: 2 }} data-testid="stop-notices">
      {current.map((c) => (
        <Alert key={c.id} severity="warning" data-testid="stop-notice" data-kind={c.kind}>
          {c.kind === 'close_stop'
            ? t('dispatch.control.closedNotice', {
                stop: c.stopName ?? c.stopId ?? '',
                from: clock(c.activeFrom),
                to: clock(c.activeTo),
                route: c.routeId === null ? '' : t('dispatch.control.onRoute', { route: route(c) }),
                reason: c.reason,
              })
            : t('dispatch.control.detourNotice', {
                route: route(c),
                direction: c.direction === null ? '' : ` (${t(`dispatch.control.directions.${c.direction === 1 ? '1' : '0'}`)})`,
                from: c.stopName ?? c.stopId ?? '',
                to: c.toStopName ?? c.toStopId ?? '',
                start: clock(c.activeFrom),
                end: clock(c.activeTo),
                reason: c.reason,
              })}
        </Alert>
      ))}
    </Stack>
  );
}

/** A route's runs of the day with their changes; each may be cancelled or moved (code 46). */
function RouteRuns({
  routeId,
  mayChange,
  onChange,
}: {
  routeId: number;
  mayChange: boolean;
  onChange: (run: ChangeRun, kind: RunChangeKind) => void;
}) {
  const t = useT();
  const runs = useChangeRuns({ route: routeId });
  return (
    <Paper variant="outlined" sx={{ overflowX: 'auto', mt: 1 }}>
      <DispatchError error={runs.error} />
      {runs.data?.list.length === 0 && (
        <Typography sx={{ p: 2 }} color="text.secondary">
          {t('dispatch.control.noRuns')}
        </Typography>
      )}
      {runs.data && runs.data.list.length > 0 && (
        <Table size="small" data-testid="change-runs">
          <TableHead>
            <TableRow>
              {(['run', 'start', 'vehicle', 'status', 'actions'] as const).map((c) => (
                <TableCell key={c}>{t(`dispatch.control.columns.${c}`)}</TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {runs.data.list.map((r) => (
              <TableRow key={r.runKey} data-testid="change-run-row" data-graph={r.graph} data-race={r.raceNum} data-cancelled={r.cancelled}>
                <TableCell>{`${r.graph} / ${r.raceNum}`}</TableCell>
                <TableCell>{clock(r.plannedStart)}</TableCell>
                <TableCell>{r.depotNumber ?? ''}</TableCell>
                <TableCell>
                  {r.added && <Chip size="small" color="info" variant="outlined" label={t('dispatch.control.added')} sx={{ mr: 0.5 }} />}
                  {r.cancelled && (
                    <Chip size="small" color="error" variant="outlined" label={t('dispatch.control.cancelled')} sx={{ mr: 0.5 }} />
                  )}
                  {r.shiftMinutes !== null && (
                    <Chip
                      size="small"
                      label={t('dispatch.control.shifted', { minutes: r.shiftMinutes > 0 ? `+${r.shiftMinutes}` : String(r.shiftMinutes) })}
                    />
                  )}
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {mayChange && !r.cancelled && (
                    <Button size="small" color="error" onClick={() => onChange(r, 'cancel')} data-testid="change-run-cancel">
                      {t('dispatch.control.cancelRun')}
                    </Button>
                  )}
                  {mayChange && r.shiftMinutes === null && (
                    <Button size="small" onClick={() => onChange(r, 'shift')} data-testid="change-run-shift">
                      {t('dispatch.control.moveStart')}
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Paper>
  );
}

/**
 * /dispatch/changes «Изменения движения» (code 44 reads, code 46 changes): the closed stops and detours in force
 * as alerts, the day's changes with their author, reason and time, each revocable, and a route's runs of the day
 * (?route=) to cancel or move, with a run to add, a stop to close and a detour to draw.
 */
export default function ChangesScreen() {
  const t = useT();
  const rights = useRights(DISPATCH_CHANGES_PATH);
  const [params, setParams] = useSearchParams();
  const route = idsFrom(params.get('route'))[0];
  const options = useOptions();
  const changes = useChanges();
  /** What the change did beyond its kind: the minutes moved, the vehicles of a handover, an added run's vehicle,
   *  the stop closed or the detour's stops, and their period. */
  const period = (c: ServiceChange) => t('dispatch.control.period', { from: clock(c.activeFrom), to: clock(c.activeTo) });
  const details = (c: ServiceChange) =>
    c.kind === 'close_stop'
      ? `${c.stopName ?? c.stopId}, ${period(c)}`
      : c.kind === 'detour'
        ? `${c.stopName ?? c.stopId} → ${c.toStopName ?? c.toStopId}, ${period(c)}${
            c.direction === null ? '' : `, ${t(`dispatch.control.directions.${c.direction === 1 ? '1' : '0'}`)}`
          }`
        : c.kind === 'shift' && c.shiftMinutes !== null
          ? `${c.shiftMinutes > 0 ? '+' : ''}${c.shiftMinutes}`
          : c.kind === 'handover'
            ? t('dispatch.control.handedOver', { from: c.fromVehicleName ?? '—', to: c.vehicleName ?? '' })
            : c.kind === 'add'
              ? `${t(`dispatch.control.directions.${c.direction === 1 ? '1' : '0'}`)}${c.vehicleName ? `, ${c.vehicleName}` : ''}`
              : '';
  const revoke = useRevokeChange();
  const [editing, setEditing] = useState<{ run: ChangeRun; kind: RunChangeKind } | null>(null);
  const [adding, setAdding] = useState<'run' | 'closure' | 'detour' | null>(null);
  const setRoute = (ids: number[]) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (ids.length) next.set('route', String(ids[0]));
        else next.delete('route');
        return next;
      },
      { replace: true },
    );

  return (
    <Box sx={{ p: 2 }} data-testid="dispatch-changes">
      <Title title={t('menu.dispatch.changes')} />
      <Typography variant="h6">{t('dispatch.control.dayChanges')}</Typography>
      <DispatchError error={changes.error ?? revoke.error} />
      <StopNotices changes={changes.data?.list ?? []} />
      <Paper variant="outlined" sx={{ overflowX: 'auto', mb: 3 }}>
        {changes.data?.list.length === 0 && (
          <Typography sx={{ p: 2 }} color="text.secondary" data-testid="changes-empty">
            {t('dispatch.control.noChanges')}
          </Typography>
        )}
        {changes.data && changes.data.list.length > 0 && (
          <Table size="small" data-testid="changes-table">
            <TableHead>
              <TableRow>
                {(['time', 'kind', 'route', 'run', 'start', 'details', 'reason', 'author', 'state', 'actions'] as const).map((c) => (
                  <TableCell key={c}>{t(`dispatch.control.columns.${c}`)}</TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {changes.data.list.map((c) => (
                <TableRow
                  key={c.id}
                  data-testid="change-row"
                  data-kind={c.kind}
                  data-revoked={c.revokedAt !== null}
                  sx={{ opacity: c.revokedAt ? 0.55 : 1 }}
                >
                  <TableCell>{clock(c.createdAt)}</TableCell>
                  <TableCell>{t(`dispatch.control.kinds.${c.kind}`)}</TableCell>
                  <TableCell>{c.routeName ?? c.routeId ?? t('dispatch.control.allRoutesShort')}</TableCell>
                  <TableCell>{c.graph === null ? '' : `${c.graph} / ${c.raceNum}`}</TableCell>
                  <TableCell>{clock(c.plannedStart)}</TableCell>
                  <TableCell>
                    {details(c)}
                    {c.kind === 'detour' && c.path && <DetourPreview path={c.path} height={110} />}
                  </TableCell>
                  <TableCell>{c.reason}</TableCell>
                  <TableCell>{c.author ?? ''}</TableCell>
                  <TableCell>
                    {c.revokedAt
                      ? t('dispatch.control.revoked', { at: clock(c.revokedAt), user: c.revokedBy ?? '' })
                      : t('dispatch.control.active')}
                  </TableCell>
                  <TableCell>
                    {rights.update && !c.revokedAt && (
                      <Button
                        size="small"
                        onClick={() => revoke.mutate({ id: c.id })}
                        disabled={revoke.isPending}
                        data-testid="change-revoke"
                      >
                        {t('dispatch.control.restore')}
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </Paper>
      <Typography variant="h6">{t('dispatch.control.runs')}</Typography>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mt: 1 }}>
        <DispatchIdSelect
          label={t('dispatch.filters.route')}
          options={options.data?.routes ?? []}
          value={route ? [route] : []}
          onChange={setRoute}
          testId="changes-route"
          multiple={false}
        />
        {route !== undefined && rights.create && (
          <>
            <Button variant="outlined" onClick={() => setAdding('run')} data-testid="changes-add-run">
              {t('dispatch.control.addRun')}
            </Button>
            <Button variant="outlined" onClick={() => setAdding('closure')} data-testid="changes-close-stop">
              {t('dispatch.control.closeStop')}
            </Button>
            <Button variant="outlined" onClick={() => setAdding('detour')} data-testid="changes-detour">
              {t('dispatch.control.detour')}
            </Button>
          </>
        )}
      </Stack>
      {route === undefined && (
        <Typography sx={{ mt: 1 }} color="text.secondary">
          {t('dispatch.control.chooseRoute')}
        </Typography>
      )}
      {route !== undefined && <RouteRuns routeId={route} mayChange={rights.create} onChange={(run, kind) => setEditing({ run, kind })} />}
      {adding === 'run' && route !== undefined && <AddRunDialog routeId={route} onClose={() => setAdding(null)} />}
      {adding === 'closure' && route !== undefined && <CloseStopDialog routeId={route} onClose={() => setAdding(null)} />}
      {adding === 'detour' && route !== undefined && <DetourDialog routeId={route} onClose={() => setAdding(null)} />}
      {editing && <ChangeRunDialog runs={[editing.run]} runKey={editing.run.runKey} kind={editing.kind} onClose={() => setEditing(null)} />}
    </Box>
  );
}
