import { Autocomplete, TextField } from '@mui/material';
import { useEffect, useState } from 'react';
import { useInput, useTranslate } from 'react-admin';
import type { HandbookSchema, RefField } from '../../../shared/handbooks/types';
import { suggestionText, useRefLabels, useRefOptions, type RefOption } from './useRefOptions';

const valuesOf = (value: unknown): (number | string)[] => {
  if (Array.isArray(value)) return value as (number | string)[];
  return typeof value === 'number' || (typeof value === 'string' && value !== '') ? [value] : [];
};

/** A list filter on a link: any of the chosen linked records (by name, from at most 50 suggestions). */
/** `source` and `label` are read by react-admin's filter button from the element's props. */
export function HandbookRefFilter({ schema, field }: { schema: HandbookSchema; field: RefField; source: string; label: string }) {
  const translate = useTranslate();
  const { field: input } = useInput({ source: field.name });
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<RefOption[]>([]);
  const { options, loading } = useRefOptions(schema.type, field.name, search, open);
  const values = valuesOf(input.value);
  const resolved = useRefLabels(
    schema.type,
    field.name,
    values.filter((value) => !chosen.some((option) => option.value === value)),
  );
  // the labels read join the known ones: each value's label is read once
  useEffect(() => {
    if (resolved?.length) setChosen((list) => [...list, ...resolved.filter((option) => !list.some((item) => item.value === option.value))]);
  }, [resolved]);
  const value = values.map((item) => chosen.find((option) => option.value === item) ?? { value: item, label: String(item) });
  return (
    <Autocomplete<RefOption, true>
      multiple
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      value={value}
      options={options}
      loading={loading}
      filterOptions={(list) => list}
      isOptionEqualToValue={(option, item) => option.value === item.value}
      getOptionLabel={(option) => option.label}
      renderOption={({ key, ...props }, option) => (
        <li key={key} {...props} title={option.label}>
          {suggestionText(option.label)}
        </li>
      )}
      onInputChange={(_event, text, reason) => {
        if (reason === 'input') setSearch(text);
      }}
      onChange={(_event, list) => {
        setChosen((known) => [...known, ...list.filter((option) => !known.some((item) => item.value === option.value))]);
        input.onChange(list.length ? list.map((option) => option.value) : undefined);
      }}
      noOptionsText={translate('handbookEditor.nothingFound')}
      loadingText={translate('app.loading')}
      size="small"
      sx={{ minWidth: 260 }}
      renderInput={(params) => <TextField {...params} label={field.label} size="small" />}
    />
  );
}
