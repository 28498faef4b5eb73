import { useState } from 'react';
import { Autocomplete, Box, InputAdornment, TextField, Typography } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import type { MapFilters } from '../../shared/map';
import { useT } from '../../web/i18n/translate';
import { showMessage } from '../../web/stores/messageStore';
import { goToSearchItem } from '../../web/map/locate';
import { mapApi } from '../../web/map/mapApi';
import { useMapState } from '../../web/map/mapState';
import { searchFilters, type MapSearchItem } from '../../web/map/searchResults';
import { useDebouncedLoad } from '../../web/map/useDebouncedLoad';

const KIND_ORDER = { route: 0, vehicle: 1, enterprise: 2 } as const;

/**
 * Entity search (vehicles, routes, enterprises): GET /api/v1/map/search?q= debounced 300 ms, or the filter
 * data when that call fails. `onVehicle` takes over a chosen vehicle (the replay picks it instead).
 */
export function MapSearch({ filters, onVehicle }: { filters: MapFilters | null; onVehicle?: (id: number) => void }) {
  const t = useT();
  const mapState = useMapState();
  const [input, setInput] = useState('');
  const query = input.trim();
  const { data, loading } = useDebouncedLoad(query.length >= 1 ? query : null, async (signal) => {
    try {
      return await mapApi.search(query, { signal, quiet: true });
    } catch (error) {
      if (signal.aborted || !filters) throw error;
      return searchFilters(filters, query);
    }
  });
  const options = [...(data ?? [])].sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind]);
  const choose = (item: MapSearchItem | null) => {
    if (!item) return;
    setInput('');
    if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
    if (item.kind === 'vehicle' && onVehicle) return onVehicle(item.id);
    goToSearchItem(mapState, item).then(
      (found) => !found && showMessage(t('mapView.search.noPosition')),
      () => undefined,
    );
  };
  return (
    <Autocomplete<MapSearchItem, false, false, false>
      size="small"
      // 34 px high, to sit in the 42 px top panel
      sx={{ width: 300, '& .MuiAutocomplete-inputRoot.MuiInputBase-sizeSmall': { py: '3px' } }}
      options={options}
      loading={loading}
      filterOptions={(x) => x}
      value={null}
      inputValue={input}
      onInputChange={(_, value, reason) => reason !== 'reset' && setInput(value)}
      onChange={(_, item) => choose(item)}
      groupBy={(item) => t(`mapView.search.kinds.${item.kind}`)}
      getOptionLabel={(item) => item.title}
      isOptionEqualToValue={(a, b) => a.kind === b.kind && a.id === b.id}
      noOptionsText={query ? t('filter.empty') : t('mapView.search.hint')}
      loadingText={t('filter.loading')}
      renderOption={({ key, ...props }, item) => (
        <Box component="li" key={key} {...props} data-testid={`map-search-${item.kind}-${item.id}`}>
          <Box>
            <Typography variant="body2">{item.title}</Typography>
            {item.subtitle && (
              <Typography variant="caption" color="text.secondary">
                {item.subtitle}
              </Typography>
            )}
          </Box>
        </Box>
      )}
      renderInput={(params) => (
        <TextField
          {...params}
          variant="outlined"
          margin="none"
          placeholder={t('mapView.search.placeholder')}
          slotProps={{
            ...params.slotProps,
            input: {
              ...params.slotProps.input,
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
            htmlInput: { ...params.slotProps.htmlInput, 'aria-label': t('mapView.search.placeholder'), 'data-testid': 'map-search-input' },
          }}
        />
      )}
    />
  );
}
