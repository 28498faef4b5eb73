import { TextField } from '@mui/material';
import { useInput, useTranslate } from 'react-admin';
import type { MinutesField } from '../../../shared/handbooks/types';
import { entryOfValue, minutesOfEntry } from './minutesEntry';

/** Minutes of day entered as hh:mm: free typing, normalised when the input is left (spec section 5). */
export function HandbookMinutesInput({ field, disabled }: { field: MinutesField; disabled?: boolean }) {
  const translate = useTranslate();
  const { field: input, fieldState, isRequired } = useInput({ source: field.name });
  const error = fieldState.error?.message;
  return (
    <TextField
      name={input.name}
      inputRef={input.ref}
      value={entryOfValue(input.value)}
      onChange={(event) => input.onChange(event.target.value)}
      onBlur={() => {
        if (typeof input.value === 'string') input.onChange(minutesOfEntry(input.value));
        input.onBlur();
      }}
      label={field.label}
      required={isRequired || field.required}
      disabled={disabled}
      placeholder="чч:мм"
      error={Boolean(error)}
      helperText={error ? translate(error, { _: error }) : (field.help ?? translate('handbookEditor.minutesHint'))}
      size="small"
      slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 5, 'data-testid': `input-${field.name}` } }}
      sx={{ width: 160 }}
    />
  );
}
