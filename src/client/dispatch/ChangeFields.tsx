import { Button, DialogActions, MenuItem, Stack, TextField } from '@mui/material';
import { REASON_MAX, type ChangeRun, type RouteStops } from '../../shared/dispatch/control';
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

/** `HH:MM` of today in the console's clock, as an ISO moment; a time before `after` is the next day's. */
export function momentOfClock(clock: string, after?: string): string {
  const [hh, mm] = clock.split(':').map(Number);
  const at = new Date();
  at.setHours(hh, mm, 0, 0);
  if (after && at.getTime() <= Date.parse(after)) at.setDate(at.getDate() + 1);
  return at.toISOString();
}

/** The clock `minutes` from now, `HH:MM`. */
export const clockIn = (minutes: number) => formatClock(Date.now() + minutes * 60_000, { seconds: false });

/** A period of today: from and to, `HH:MM` each. */
export function PeriodFields({
  from,
  to,
  onChange,
  testId,
}: {
  from: string;
  to: string;
  onChange: (from: string, to: string) => void;
  testId: string;
}) {
  const t = useT();
  return (
    <Stack direction="row" spacing={2}>
      {(
        [
          ['activeFrom', from, (v: string) => onChange(v, to)],
          ['activeTo', to, (v: string) => onChange(from, v)],
        ] as const
      ).map(([label, value, set]) => (
        <TextField
          key={label}
          fullWidth
          margin="dense"
          type="time"
          label={t(`dispatch.control.${label}`)}
          value={value}
          onChange={(e) => set(e.target.value)}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': `${testId}-${label === 'activeFrom' ? 'from' : 'to'}` } }}
        />
      ))}
    </Stack>
  );
}

/** A stop of a route's direction (or of both, each stop once). */
export function StopSelect({
  stops,
  value,
  onChange,
  label,
  testId,
}: {
  stops: RouteStops['directions'][number]['stops'];
  value: number | '';
  onChange: (stopId: number) => void;
  label: string;
  testId: string;
}) {
  const unique = [...new Map(stops.map((s) => [s.stopId, s])).values()];
  return (
    <TextField
      select
      fullWidth
      margin="dense"
      label={label}
      value={value === '' ? '' : String(value)}
      onChange={(e) => onChange(Number(e.target.value))}
      slotProps={{ htmlInput: { 'data-testid': testId } }}
    >
      {unique.map((s) => (
        <MenuItem key={s.stopId} value={String(s.stopId)}>
          {s.name ?? `#${s.stopId}`}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** A route's direction: there (0) or back (1), and with `both` also both of them (''). */
export function DirectionSelect<V extends '' | '0' | '1'>({
  value,
  onChange,
  both,
  testId,
}: {
  value: V;
  onChange: (value: V) => void;
  both?: boolean;
  testId: string;
}) {
  const t = useT();
  return (
    <TextField
      select
      fullWidth
      margin="dense"
      label={t('dispatch.control.direction')}
      value={value === '' ? 'both' : value}
      onChange={(e) => onChange((e.target.value === 'both' ? '' : e.target.value) as V)}
      slotProps={{ htmlInput: { 'data-testid': testId } }}
    >
      {both && <MenuItem value="both">{t('dispatch.control.bothDirections')}</MenuItem>}
      {(['0', '1'] as const).map((d) => (
        <MenuItem key={d} value={d}>
          {t(`dispatch.control.directions.${d}`)}
        </MenuItem>
      ))}
    </TextField>
  );
}
