import { useState } from 'react';
import { Checkbox, Dialog, DialogContent, DialogTitle, FormControlLabel } from '@mui/material';
import { DispatchError } from '../../web/dispatch/DispatchError';
import { useT } from '../../web/i18n/translate';
import { ChangeActions, clockIn, momentOfClock, PeriodFields, ReasonField, StopSelect } from './ChangeFields';
import { useCloseStop, useRouteStops } from './controlApi';

/**
 * Closes a stop of a route for a period of today (code 46), or of every route through it: the runs due there
 * in the period expect no passage there, TripUpdates skips it, its arrivals show none.
 */
export function CloseStopDialog({ routeId, onClose }: { routeId: number; onClose: () => void }) {
  const t = useT();
  const stops = useRouteStops(routeId);
  const close = useCloseStop();
  const [stopId, setStopId] = useState<number | ''>('');
  const [allRoutes, setAllRoutes] = useState(false);
  const [[from, to], setPeriod] = useState(() => [clockIn(0), clockIn(120)]);
  const [reason, setReason] = useState('');
  const save = () => {
    if (stopId === '') return;
    const activeFrom = momentOfClock(from);
    close.mutate(
      { stopId, ...(allRoutes ? {} : { routeId }), activeFrom, activeTo: momentOfClock(to, activeFrom), reason },
      { onSuccess: onClose },
    );
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" data-testid="close-stop-dialog">
      <DialogTitle>{t('dispatch.control.closeStopTitle')}</DialogTitle>
      <DialogContent>
        <StopSelect
          stops={stops.data?.directions.flatMap((d) => d.stops) ?? []}
          value={stopId}
          onChange={setStopId}
          label={t('dispatch.control.stop')}
          testId="close-stop-stop"
        />
        <FormControlLabel
          control={<Checkbox checked={allRoutes} onChange={(e) => setAllRoutes(e.target.checked)} data-testid="close-stop-all" />}
          label={t('dispatch.control.allRoutes')}
        />
        <PeriodFields from={from} to={to} onChange={(a, b) => setPeriod([a, b])} testId="close-stop" />
        <ReasonField value={reason} onChange={setReason} testId="close-stop-reason" />
        <DispatchError error={close.error ?? stops.error} />
      </DialogContent>
      <ChangeActions onClose={onClose} onSave={save} disabled={close.isPending || stopId === ''} testId="close-stop-save" />
    </Dialog>
  );
}
