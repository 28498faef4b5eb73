import { Button, DialogActions, MenuItem, TextField } from '@mui/material';
import { REASON_MAX, type ChangeRun } from '../../shared/dispatch/control';
import { formatClock } from '../../shared/format';
import { useT } from '../../web/i18n/translate';

/** The fields every service-change dialog shares: the run it is made on, its reason, and its two buttons. */

export function RunSelect({
  runs,
  value,
  onChange,
  label,
  testId,
}: {
  runs: readonly ChangeRun[];
  value: string;
  onChange: (runKey: string) => void;
  label: string;
  testId: string;
}) {
  const t = useT();
  return (
    <TextField
      select
      fullWidth
      margin="dense"
      label={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      slotProps={{ htmlInput: { 'data-testid': testId } }}
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
  );
}

export function ReasonField({
  value,
  onChange,
  testId,
  autoFocus,
}: {
  value: string;
  onChange: (reason: string) => void;
  testId: string;
  autoFocus?: boolean;
}) {
  const t = useT();
  return (
    <TextField
      autoFocus={autoFocus}
      fullWidth
      multiline
      minRows={2}
      margin="dense"
      label={t('dispatch.control.reason')}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      slotProps={{ htmlInput: { maxLength: REASON_MAX, 'data-testid': testId } }}
    />
  );
}

export function ChangeActions({
  onClose,
  onSave,
  disabled,
  testId,
}: {
  onClose: () => void;
  onSave: () => void;
  disabled: boolean;
  testId: string;
}) {
  const t = useT();
  return (
    <DialogActions>
      <Button onClick={onClose}>{t('dispatch.control.cancel')}</Button>
      <Button variant="contained" onClick={onSave} disabled={disabled} data-testid={testId}>
        {t('dispatch.control.save')}
      </Button>
    </DialogActions>
  );
}
