import { TextField } from '@mui/material';
import { toCount } from '../../shared/bc/report';

/**
 * A count typed on the phone (field-app spec 5): the numeric keyboard; non-numeric or negative input becomes
 * 0, a missing count shows as 0; `cap` limits it (the sold-ticket cap) and is shown under the field.
 */
export function CountField({
  label,
  value,
  onChange,
  cap,
  capHint,
  testId,
}: {
  label: string;
  value: number;
  onChange: (value: number) => void;
  cap?: number;
  capHint?: string;
  testId?: string;
}) {
  return (
    <TextField
      size="small"
      fullWidth
      label={label}
      value={String(value ?? 0)}
      helperText={capHint}
      onChange={(event) => onChange(cap === undefined ? toCount(event.target.value) : Math.min(cap, toCount(event.target.value)))}
      onFocus={(event) => event.target.select()}
      slotProps={{ htmlInput: { inputMode: 'numeric', pattern: '[0-9]*', 'data-testid': testId } }}
    />
  );
}
