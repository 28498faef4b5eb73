import { useMemo, useState } from 'react';
import { Alert, Autocomplete, Button, Stack, TextField, createFilterOptions } from '@mui/material';
import type { MapVehicleItem } from '../../shared/map';
import { useT } from '../../web/i18n/translate';
import { locateVehicle } from '../../web/map/locate';
import { useMapState } from '../../web/map/mapState';
import { useApiQuery } from '../../web/providers/queries';
import { useCurrentUser } from '../../web/stores/sessionStore';
import { fieldMapApi } from './fieldMapApi';
import {
  EMPTY_VEHICLE_SEARCH,
  changeFilter,
  chooseVehicle,
  matchingVehicles,
  routesOfType,
  type VehicleSearchState,
} from './vehicleSearch';

/** At most this many options rendered in a list (a city has 2,000 vehicles; typing narrows them). */
const shown = createFilterOptions<{ label: string }>({ limit: 100 });
const shownVehicles = createFilterOptions<MapVehicleItem>({ limit: 100, stringify: (v) => `${v.depotNumber} ${v.gosNomer ?? ''}` });

/** Remembered while the app is open, so reopening the search shows the last choice. */
let lastState: VehicleSearchState = EMPTY_VEHICLE_SEARCH;

/**
 * The vehicle search (field-app spec 2.3): branch, route, vehicle type, garage number and plate (one vehicle,
 * two single-choice lists). Choosing a vehicle fills its route, branch and type; submitting centres the map on
 * it at zoom 16 and opens its details.
 */
export function VehicleSearchForm({ onDone }: { onDone: () => void }) {
  const t = useT();
  const mapState = useMapState();
  const types = useCurrentUser()?.transporttype ?? [];
  // asked once while the app is open (vehicles' routes change by the day, not by the minute)
  const { data: filters } = useApiQuery(['map', 'mobile-filters'], (signal) => fieldMapApi.filters(signal), { staleTime: Infinity });
  const [state, setState] = useState<VehicleSearchState>(lastState);
  const [noPosition, setNoPosition] = useState(false);
  const update = (next: VehicleSearchState) => {
    lastState = next;
    setState(next);
    setNoPosition(false);
  };

  const vehicles = useMemo(() => (filters ? matchingVehicles(filters, state, types) : []), [filters, state, types]);
  const routes = useMemo(() => (filters ? routesOfType(filters, state.type) : []), [filters, state.type]);
  if (!filters) return null;
  const vehicle = filters.vehicles.find((v) => v.id === state.vehicle) ?? null;
  const branch = filters.branches.find((b) => b.id === state.branch) ?? null;
  const route = filters.routes.find((r) => r.id === state.route) ?? null;
  const type = types.find((tt) => tt.code === state.type) ?? null;
  const pick = (id: number | null) => update(chooseVehicle(state, id, filters, types));

  const submit = async () => {
    if (state.vehicle === null) return;
    if (await locateVehicle(mapState, state.vehicle)) onDone();
    else setNoPosition(true);
  };

  return (
    <Stack spacing={1.5} data-testid="vehicle-search">
      <Autocomplete
        size="small"
        options={filters.branches}
        value={branch}
        getOptionLabel={(b) => b.name}
        filterOptions={shown as never}
        onChange={(_, b) => update(changeFilter(state, { branch: b?.id ?? null }, filters, types))}
        renderInput={(params) => <TextField {...params} label={t('fieldMap.search.branch')} />}
        data-testid="vehicle-search-branch"
      />
      <Autocomplete
        size="small"
        options={routes}
        value={route}
        getOptionLabel={(r) => r.name}
        filterOptions={shown as never}
        onChange={(_, r) => update(changeFilter(state, { route: r?.id ?? null }, filters, types))}
        renderInput={(params) => <TextField {...params} label={t('fieldMap.search.route')} />}
        data-testid="vehicle-search-route"
      />
      <Autocomplete
        size="small"
        options={types}
        value={type}
        getOptionLabel={(tt) => tt.title}
        onChange={(_, tt) => update(changeFilter(state, { type: tt?.code ?? null }, filters, types))}
        renderInput={(params) => <TextField {...params} label={t('fieldMap.search.type')} />}
        data-testid="vehicle-search-type"
      />
      <Autocomplete
        size="small"
        options={vehicles}
        value={vehicle}
        getOptionLabel={(v) => String(v.depotNumber)}
        filterOptions={shownVehicles}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        onChange={(_, v) => pick(v?.id ?? null)}
        renderInput={(params) => (
          <TextField
            {...params}
            label={t('fieldMap.search.garageNumber')}
            slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, inputMode: 'numeric' } }}
          />
        )}
        data-testid="vehicle-search-garage"
      />
      <Autocomplete
        size="small"
        options={vehicles.filter((v) => v.gosNomer)}
        value={vehicle?.gosNomer ? vehicle : null}
        getOptionLabel={(v) => v.gosNomer ?? ''}
        filterOptions={shownVehicles}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        onChange={(_, v) => pick(v?.id ?? null)}
        renderInput={(params) => <TextField {...params} label={t('fieldMap.search.plate')} />}
        data-testid="vehicle-search-plate"
      />
      {noPosition && <Alert severity="info">{t('mapView.search.noPosition')}</Alert>}
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
        <Button onClick={() => update(EMPTY_VEHICLE_SEARCH)} data-testid="vehicle-search-reset">
          {t('fieldMap.search.reset')}
        </Button>
        <Button variant="contained" disabled={state.vehicle === null} onClick={() => void submit()} data-testid="vehicle-search-submit">
          {t('fieldMap.search.show')}
        </Button>
      </Stack>
    </Stack>
  );
}
