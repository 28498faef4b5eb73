import { useState } from 'react';
import { Autocomplete, TextField } from '@mui/material';
import { useAlertStops } from './alertsApi';

interface Named {
  id: number;
  name: string;
}

/** The alert's stops: found by name on the server as one types (a city has thousands), chosen several. */
export function AlertStopSelect({ label, value, onChange }: { label: string; value: Named[]; onChange: (stops: Named[]) => void }) {
  const [text, setText] = useState('');
  const found = useAlertStops(text.trim());
  return (
    <Autocomplete
      multiple
      size="small"
      options={found.data?.list ?? []}
      value={value}
      loading={found.isFetching}
      filterOptions={(options) => options}
      getOptionLabel={(o) => o.name}
      getOptionKey={(o) => o.id}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      inputValue={text}
      onInputChange={(_, next) => setText(next)}
      onChange={(_, next) => onChange(next)}
      renderOption={(props, o) => (
        <li {...props} key={o.id}>
          {`${o.name} (${o.id})`}
        </li>
      )}
      renderInput={(params) => <TextField {...params} margin="dense" label={label} />}
      data-testid="alert-stops"
    />
  );
}
