import { Autocomplete } from '@mui/material';
import { useState } from 'react';
import { useInput, useRecordContext, useTranslate } from 'react-admin';
import { displayKey } from '../../../shared/handbooks/fields';
import type { HandbookSchema, RefField } from '../../../shared/handbooks/types';
import { HandbookAutocompleteField } from './HandbookAutocompleteField';
import { suggestionText, useRefLabels, useRefOptions, type RefOption } from './useRefOptions';

/** The option of the record's current link: its text comes with the record (<field>__display). */
function useCurrentOption(schema: HandbookSchema, field: RefField, value: unknown): RefOption | null {
  const record = useRecordContext();
  const shown = record && record[field.name] === value ? record[displayKey(field.name)] : undefined;
  const unnamed = value !== null && value !== undefined && value !== '' && shown === undefined;
  const [resolved] = useRefLabels(schema.type, field.name, unnamed ? [value as number | string] : []) ?? [];
  if (value === null || value === undefined || value === '') return null;
  if (shown !== undefined) return { value: value as number | string, label: String(shown ?? value) };
  return resolved?.value === value ? resolved : { value: value as number | string, label: String(value) };
}

/** A link to another handbook, shown by name, chosen from at most 50 suggestions of what is typed. */
export function HandbookRefInput({ schema, field, disabled }: { schema: HandbookSchema; field: RefField; disabled?: boolean }) {
  const translate = useTranslate();
  const { field: input, fieldState } = useInput({ source: field.name });
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const { options, loading } = useRefOptions(schema.type, field.name, search, open);
  const current = useCurrentOption(schema, field, input.value);
  const error = fieldState.error?.message;
  return (
    <Autocomplete<RefOption>
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      value={current}
      options={options}
      loading={loading}
      disabled={disabled}
      filterOptions={(list) => list}
      isOptionEqualToValue={(option, value) => option.value === value.value}
      getOptionLabel={(option) => option.label}
      renderOption={({ key, ...props }, option) => (
        <li key={key} {...props} title={option.label}>
          {suggestionText(option.label)}
        </li>
      )}
      onInputChange={(_event, text, reason) => {
        if (reason === 'input') setSearch(text);
        if (reason === 'clear') setSearch('');
      }}
      onChange={(_event, option) => {
        input.onChange(option ? option.value : null);
        setSearch('');
      }}
      onBlur={input.onBlur}
      noOptionsText={translate('handbookEditor.nothingFound')}
      loadingText={translate('app.loading')}
      fullWidth
      renderInput={(params) => (
        <HandbookAutocompleteField params={params} field={field} name={input.name} error={error} loading={loading && open} />
      )}
    />
  );
}
