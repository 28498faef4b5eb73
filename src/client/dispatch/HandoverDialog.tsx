import { useState } from 'react';
import { Button, Checkbox, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel, MenuItem, TextField } from '@mui/material';
import { REASON_MAX, type ChangeRun } from '../../shared/dispatch/control';
import { formatClock } from '../../shared/format';
import { useOptions } from '../../web/dispatch/dispatchApi';
import { DispatchError } from '../../web/dispatch/DispatchError';
import { HttpError } from '../../web/providers/httpClient';
import { useT } from '../../web/i18n/translate';
import { useHandover } from './controlApi';
import { DispatchIdSelect } from './DispatchIdSelect';

/**
 * Hands a vehicle's exit over to another vehicle from now (code 46): the run it is handed over on (its current
 * one first chosen), the new vehicle and the reason. A vehicle working another exit is handed over only once
 * confirmed (the server says so).
 */
export function HandoverDialog({
  runs,
  runKey,
  vehicleId,
  onClose,
}: {
  runs: readonly ChangeRun[];
  runKey?: string;
  vehicleId: number;
  onClose: () => void;
}) {
  const t = useT();
  const options = useOptions();
  const handover = useHandover();
  const [chosen, setChosen] = useState(runKey ?? runs[0]?.runKey ?? '');
  const [vehicle, setVehicle] = useState<number | null>(null);
  const [reason, setReason] = useState('');
  const [confirm, setConfirm] = useState(false);
  const busy = handover.error instanceof HttpError && handover.error.messages.includes('dispatch_vehicle_busy');
  const save = () =>
    vehicle !== null &&
    handover.mutate({ runKey: chosen, vehicleId: vehicle, reason, ...(confirm ? { confirm: true } : {}) }, { onSuccess: onClose });
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" data-testid="handover-dialog">
      <DialogTitle>{t('dispatch.control.handoverTitle')}</DialogTitle>
      <DialogContent>
        <TextField
          select
          fullWidth
          margin="dense"
          label={t('dispatch.control.handoverRun')}
          value={chosen}
          onChange={(e) => setChosen(e.target.value)}
          slotProps={{ htmlInput: { 'data-testid': 'handover-run' } }}
        >
          {runs.map((r) => (
            <MenuItem key={r.runKey} value={r.runKey}>
              {t('dispatch.control.runLabel', {
                route: r.routeName ?? r.routeId,
                graph: r.graph,
                smena: r.smena,
                race: r.raceNum,
                start: formatClock(r.plannedStart, { seconds: false }),
              })}
            </MenuItem>
          ))}
        </TextField>
        <DispatchIdSelect
          label={t('dispatch.control.newVehicle')}
          options={(options.data?.vehicles ?? []).filter((v) => v.id !== vehicleId)}
          value={vehicle === null ? [] : [vehicle]}
          onChange={(ids) => setVehicle(ids[0] ?? null)}
          testId="handover-vehicle"
          multiple={false}
        />
        <TextField
          fullWidth
          multiline
          minRows={2}
          margin="dense"
          label={t('dispatch.control.reason')}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          slotProps={{ htmlInput: { maxLength: REASON_MAX, 'data-testid': 'handover-reason' } }}
        />
        {busy && (
          <FormControlLabel
            control={<Checkbox checked={confirm} onChange={(e) => setConfirm(e.target.checked)} data-testid="handover-confirm" />}
            label={t('dispatch.control.confirmBusy')}
          />
        )}
        <DispatchError error={handover.error} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('dispatch.control.cancel')}</Button>
        <Button variant="contained" onClick={save} disabled={handover.isPending || !chosen || vehicle === null} data-testid="handover-save">
          {t('dispatch.control.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
