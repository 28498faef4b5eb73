import { Box, TextField } from '@mui/material';
import { useInput, useTranslate } from 'react-admin';
import type { ColorField } from '../../../shared/handbooks/types';

const HEX = /^#[0-9a-fA-F]{6}$/;

/** A colour: the browser's picker beside the #rrggbb text; empty becomes the default #000000. */
export function HandbookColorInput({ field, disabled }: { field: ColorField; disabled?: boolean }) {
  const translate = useTranslate();
  const { field: input, fieldState } = useInput({ source: field.name, defaultValue: field.default });
  const value = typeof input.value === 'string' ? input.value : '';
  const error = fieldState.error?.message;
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
      <TextField
        name={input.name}
        inputRef={input.ref}
        value={value}
        onChange={(event) => input.onChange(event.target.value)}
        onBlur={() => {
          if (value.trim() === '') input.onChange(field.default);
          input.onBlur();
        }}
        label={field.label}
        required={field.required}
        disabled={disabled}
        error={Boolean(error)}
        helperText={error ? translate(error, { _: error }) : ' '}
        size="small"
        slotProps={{ htmlInput: { maxLength: 7, 'data-testid': `input-${field.name}` } }}
        sx={{ width: 160 }}
      />
      <Box
        component="input"
        type="color"
        aria-label={field.label}
        disabled={disabled}
        value={HEX.test(value) ? value.toLowerCase() : field.default}
        onChange={(event: React.ChangeEvent<HTMLInputElement>) => input.onChange(event.target.value)}
        sx={{ width: 40, height: 40, p: 0, border: 'none', background: 'none', cursor: 'pointer' }}
      />
    </Box>
  );
}
