import { Autocomplete, TextField, type AutocompleteRenderInputParams } from '@mui/material';
import type { Option } from '../../shared/api';

/** A choice of one or more of `options` by name (routes, depots); the value is their ids. */
export function DispatchIdSelect({
  label,
  options,
  value,
  onChange,
  testId,
  multiple = true,
}: {
  label: string;
  options: readonly Option[];
  value: readonly number[];
  onChange: (ids: number[]) => void;
  testId: string;
  multiple?: boolean;
}) {
  const chosen = options.filter((o) => value.includes(o.id));
  const common = {
    options: options as Option[],
    size: 'small' as const,
    getOptionLabel: (o: Option) => o.name,
    isOptionEqualToValue: (a: Option, b: Option) => a.id === b.id,
    sx: { minWidth: 200, maxWidth: 420 },
    renderInput: (params: AutocompleteRenderInputParams) => <TextField {...params} label={label} />,
    'data-testid': testId,
  };
  return multiple ? (
    <Autocomplete multiple {...common} value={chosen} onChange={(_, next) => onChange(next.map((o) => o.id))} />
  ) : (
    <Autocomplete {...common} value={chosen[0] ?? null} onChange={(_, next) => onChange(next ? [next.id] : [])} />
  );
}
