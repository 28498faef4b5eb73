import { useState } from 'react';
import { Dialog, DialogContent, DialogTitle, TextField } from '@mui/material';
import { formatClock } from '../../shared/format';
import { useOptions } from '../../web/dispatch/dispatchApi';
import { DispatchError } from '../../web/dispatch/DispatchError';
import { useT } from '../../web/i18n/translate';
import { ChangeActions, DirectionSelect, ReasonField } from './ChangeFields';
import { useAddRun } from './controlApi';
import { DispatchIdSelect } from './DispatchIdSelect';

/** The clock ten minutes ahead, `HH:MM`, as the console shows times. */
const soon = () => formatClock(Date.now() + 10 * 60_000, { seconds: false });

/**
 * Adds a run of a route to today's timetable (code 46): its direction, first departure and, if known, its
 * vehicle; the server copies the running times of the route's run of that direction closest in time.
 */
export function AddRunDialog({ routeId, onClose }: { routeId: number; onClose: () => void }) {
  const t = useT();
  const options = useOptions();
  const add = useAddRun();
  const [direction, setDirection] = useState<0 | 1>(0);
  const [start, setStart] = useState(soon);
  const [vehicle, setVehicle] = useState<number | null>(null);
  const [reason, setReason] = useState('');
  const save = () =>
    add.mutate({ routeId, direction, start, reason, ...(vehicle === null ? {} : { vehicleId: vehicle }) }, { onSuccess: onClose });
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" data-testid="add-run-dialog">
      <DialogTitle>{t('dispatch.control.addRunTitle')}</DialogTitle>
      <DialogContent>
        <DirectionSelect
          value={String(direction) as '0' | '1'}
          onChange={(d) => setDirection(d === '1' ? 1 : 0)}
          testId="add-run-direction"
        />
        <TextField
          fullWidth
          margin="dense"
          type="time"
          label={t('dispatch.control.startTime')}
          value={start}
          onChange={(e) => setStart(e.target.value)}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'add-run-start' } }}
        />
        <DispatchIdSelect
          label={t('dispatch.control.addedVehicle')}
          options={options.data?.vehicles ?? []}
          value={vehicle === null ? [] : [vehicle]}
          onChange={(ids) => setVehicle(ids[0] ?? null)}
          testId="add-run-vehicle"
          multiple={false}
        />
        <ReasonField value={reason} onChange={setReason} testId="add-run-reason" />
        <DispatchError error={add.error} />
      </DialogContent>
      <ChangeActions onClose={onClose} onSave={save} disabled={add.isPending || !/^\d{2}:\d{2}$/.test(start)} testId="add-run-save" />
    </Dialog>
  );
}
