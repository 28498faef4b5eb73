import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import dayjs from 'dayjs';
import { isoDate } from '../../shared/format';

/**
 * A date typed DD.MM.YYYY (MUI X picker, the Russian locale of DateLocalization); the value is 'YYYY-MM-DD' or '' while
 * not a date. It keeps the width a whole date and the calendar button need beside a field that takes the rest of a row.
 */
export function DateField({
  label,
  value,
  onChange,
  testId,
  required,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  testId?: string;
  required?: boolean;
}) {
  return (
    <DatePicker
      label={label}
      value={value ? dayjs(value) : null}
      onChange={(day) => onChange(day && day.isValid() ? isoDate(day.toDate()) : '')}
      slotProps={{ textField: { size: 'small', required, name: testId, fullWidth: false, sx: { width: 190, flexShrink: 0 } } }}
    />
  );
}
