import { useState } from 'react';
import { Autocomplete, Box, TextField, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { suggestionText, useRefOptions, type RefOption } from '../inputs/useRefOptions';

/**
 * One stop of a trip, picked by name: suggestions from the stops handbook through the Trip_Stops link
 * (POST /api/table/options { config: { type: 'tripstops' }, field: 'stop_id' }), at most 50, texts cut at 75.
 */
export function StopPicker({
  value,
  error,
  onChange,
}: {
  value: RefOption | null;
  error?: string;
  onChange: (option: RefOption | null) => void;
}) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const { options, loading } = useRefOptions('tripstops', 'stop_id', search, open);
  return (
    <Autocomplete<RefOption>
      size="small"
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      value={value}
      options={value && !options.some((option) => option.value === value.value) ? [value, ...options] : options}
      loading={loading}
      filterOptions={(list) => list}
      getOptionLabel={(option) => option.label}
      // stops often share a name (both sides of a street): the key tells them apart
      renderOption={({ key, ...props }, option) => (
        <li key={key} {...props}>
          <Box sx={{ flex: 1 }} title={option.label}>
            {suggestionText(option.label)}
          </Box>
          <Typography variant="caption" color="text.secondary" sx={{ ml: 1 }}>
            {option.value}
          </Typography>
        </li>
      )}
      isOptionEqualToValue={(option, current) => option.value === current.value}
      onChange={(_event, option) => onChange(option)}
      onInputChange={(_event, text, reason) => {
        if (reason === 'input') setSearch(text);
        else if (reason === 'clear') setSearch('');
      }}
      noOptionsText={translate('handbookEditor.tripStops.nothingFound')}
      loadingText={translate('app.loading')}
      renderInput={(params) => (
        <TextField
          {...params}
          variant="standard"
          placeholder={translate('handbookEditor.tripStops.searchStop')}
          error={Boolean(error)}
          helperText={error}
          slotProps={{
            ...params.slotProps,
            htmlInput: {
              ...params.slotProps?.htmlInput,
              'aria-label': translate('handbookEditor.tripStops.stop'),
              'data-testid': 'trip-stop-input',
            },
          }}
        />
      )}
    />
  );
}
