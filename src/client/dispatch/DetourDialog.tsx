import { useState } from 'react';
import { Dialog, DialogContent, DialogTitle } from '@mui/material';
import type { PathPoint } from '../../shared/dispatch/control';
import { DispatchError } from '../../web/dispatch/DispatchError';
import { useT } from '../../web/i18n/translate';
import { ChangeActions, clockIn, DirectionSelect, momentOfClock, PeriodFields, ReasonField, StopSelect } from './ChangeFields';
import { useDetour, useRouteStops } from './controlApi';
import { DetourPathField, pathOfWkt } from './DetourPathField';

/**
 * A detour of a route for a period of today (code 46): its direction or both, the stop it leaves the line at and
 * the one it joins it again at, and the path between drawn on the map; the stops between are closed for the runs.
 */
export function DetourDialog({
  routeId,
  direction: initialDirection,
  onClose,
}: {
  routeId: number;
  direction?: 0 | 1;
  onClose: () => void;
}) {
  const t = useT();
  const stops = useRouteStops(routeId);
  const detour = useDetour();
  const [direction, setDirection] = useState<'' | '0' | '1'>(initialDirection === undefined ? '' : (String(initialDirection) as '0' | '1'));
  const [fromStop, setFromStop] = useState<number | ''>('');
  const [toStop, setToStop] = useState<number | ''>('');
  const [text, setText] = useState('');
  const [[from, to], setPeriod] = useState(() => [clockIn(0), clockIn(120)]);
  const [reason, setReason] = useState('');
  const line = stops.data?.directions.find((d) => d.direction === (direction === '1' ? 1 : 0))?.stops ?? [];
  const placeOf = (id: number | '') => line.find((s) => s.stopId === id);
  const a = placeOf(fromStop);
  const b = placeOf(toStop);
  const start: PathPoint[] =
    a && b
      ? [
          [a.lat, a.lon],
          [b.lat, b.lon],
        ]
      : [];
  const path = pathOfWkt(text);
  const save = () => {
    if (fromStop === '' || toStop === '' || !path) return;
    const activeFrom = momentOfClock(from);
    detour.mutate(
      {
        routeId,
        ...(direction === '' ? {} : { direction: direction === '1' ? 1 : 0 }),
        fromStopId: fromStop,
        toStopId: toStop,
        path,
        activeFrom,
        activeTo: momentOfClock(to, activeFrom),
        reason,
      },
      { onSuccess: onClose },
    );
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" data-testid="detour-dialog">
      <DialogTitle>{t('dispatch.control.detourTitle')}</DialogTitle>
      <DialogContent>
        <DirectionSelect value={direction} onChange={setDirection} both testId="detour-direction" />
        <StopSelect stops={line} value={fromStop} onChange={setFromStop} label={t('dispatch.control.detourFrom')} testId="detour-from" />
        <StopSelect stops={line} value={toStop} onChange={setToStop} label={t('dispatch.control.detourTo')} testId="detour-to" />
        <DetourPathField text={text} onChange={setText} start={start} />
        <PeriodFields from={from} to={to} onChange={(x, y) => setPeriod([x, y])} testId="detour" />
        <ReasonField value={reason} onChange={setReason} testId="detour-reason" />
        <DispatchError error={detour.error ?? stops.error} />
      </DialogContent>
      <ChangeActions
        onClose={onClose}
        onSave={save}
        disabled={detour.isPending || fromStop === '' || toStop === '' || !path}
        testId="detour-save"
      />
    </Dialog>
  );
}
