import { Autocomplete } from '@mui/material';
import { useState } from 'react';
import { useInput, useTranslate } from 'react-admin';
import { useWatch } from 'react-hook-form';
import type { ChoicesFrom, HandbookSchema, IntField, TextField as TextFieldSpec } from '../../../shared/handbooks/types';
import { HandbookAutocompleteField } from './HandbookAutocompleteField';
import { useRefOptions, type RefOption } from './useRefOptions';

type ChoiceField = (IntField | TextFieldSpec) & { choicesFrom: ChoicesFrom };

/** What was typed as the form value: digits as a number for an integer field. */
const typedValue = (field: ChoiceField, text: string): number | string | null => {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  return field.kind === 'int' && /^-?\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
};

/**
 * A value with suggestions from another handbook (the exits and shifts of the chosen schedule variant,
 * spec section 3): pick one or type another.
 */
export function HandbookChoiceInput({ schema, field, disabled }: { schema: HandbookSchema; field: ChoiceField; disabled?: boolean }) {
  const translate = useTranslate();
  const { field: input, fieldState } = useInput({ source: field.name });
  const owners = Object.values(field.choicesFrom.match);
  const values = useWatch({ name: owners }) as unknown[];
  const match = Object.fromEntries(owners.map((name, i) => [name, (values[i] ?? null) as number | string | null]));
  const [open, setOpen] = useState(false);
  const { options, loading } = useRefOptions(schema.type, field.name, '', open, match);
  const error = fieldState.error?.message;
  const text = input.value === null || input.value === undefined ? '' : String(input.value);
  return (
    <Autocomplete<RefOption, false, false, true>
      freeSolo
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      options={options}
      loading={loading}
      disabled={disabled}
      inputValue={text}
      value={text}
      getOptionLabel={(option) => (typeof option === 'string' ? option : option.label)}
      onInputChange={(_event, typed) => input.onChange(typedValue(field, typed))}
      onChange={(_event, option) =>
        input.onChange(option === null ? null : typeof option === 'string' ? typedValue(field, option) : option.value)
      }
      onBlur={input.onBlur}
      fullWidth
      renderInput={(params) => (
        <HandbookAutocompleteField
          params={params}
          field={field}
          name={input.name}
          error={error}
          hint={field.help ?? translate('handbookEditor.choicesHint')}
        />
      )}
    />
  );
}
