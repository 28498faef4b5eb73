import { useState } from 'react';
import { Box, List, ListItemButton, ListItemText, MenuItem, TextField, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { useDebouncedLoad } from '../map/useDebouncedLoad';
import { useApiQuery } from '../providers/queries';
import type { Option } from '../../shared/api';
import type { VideoVehicleFilters, VideoVehicleSearch } from '../../shared/video/api';
import { searchVehicles, vehicleFilters } from './videoApi';

const NO_FILTERS: VideoVehicleFilters = { depots: [], routes: [], types: [] };

/**
 * The vehicle search of /video/online (SCREENS.md: the map's vehicle search): garage number or plate,
 * branch, route of the day, vehicle type; vehicles with a recorder only, those online first. The field app's
 * /video shows it across the phone's width (`fullWidth`).
 */
export function VehicleSearchPanel({
  selected,
  onSelect,
  fullWidth = false,
}: {
  selected?: number;
  onSelect: (vehicleId: number) => void;
  fullWidth?: boolean;
}) {
  const translate = useTranslate();
  const [search, setSearch] = useState<VideoVehicleSearch>({});
  const options = useApiQuery(['video', 'vehicle-filters'], () => vehicleFilters()).data ?? NO_FILTERS;
  const { data } = useDebouncedLoad(JSON.stringify(search), (signal) => searchVehicles(search, signal));
  const select = (name: 'depot' | 'route' | 'type', choices: Option[]) => (
    <TextField
      select
      size="small"
      label={translate(`video.online.${name}`)}
      value={search[name] ?? ''}
      fullWidth
      onChange={(event) => setSearch({ ...search, [name]: event.target.value === '' ? undefined : Number(event.target.value) })}
    >
      <MenuItem value="">{translate('video.online.any')}</MenuItem>
      {choices.map((choice) => (
        <MenuItem key={choice.id} value={choice.id}>
          {choice.name}
        </MenuItem>
      ))}
    </TextField>
  );
  return (
    <Box
      sx={{
        width: fullWidth ? '100%' : 300,
        flexShrink: 0,
        display: 'flex',
        flexDirection: 'column',
        gap: 1,
        minHeight: 0,
        flex: fullWidth ? 1 : undefined,
      }}
    >
      <TextField
        size="small"
        label={translate('video.online.search')}
        value={search.q ?? ''}
        fullWidth
        slotProps={{ htmlInput: { maxLength: 100, 'data-testid': 'video-search' } }}
        onChange={(event) => setSearch({ ...search, q: event.target.value || undefined })}
      />
      {select('depot', options.depots)}
      {select('route', options.routes)}
      {select('type', options.types)}
      <List
        dense
        sx={{
          overflow: 'auto',
          flex: 1,
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          maxHeight: fullWidth ? undefined : 'calc(100vh - 330px)',
        }}
      >
        {data?.list.map((vehicle) => (
          <ListItemButton
            key={vehicle.vehicleId}
            selected={vehicle.vehicleId === selected}
            onClick={() => onSelect(vehicle.vehicleId)}
            data-testid={`video-vehicle-${vehicle.vehicleId}`}
          >
            <Box
              component="span"
              sx={{ width: 8, height: 8, borderRadius: '50%', mr: 1, flexShrink: 0, bgcolor: vehicle.online ? 'success.main' : 'grey.400' }}
            />
            <ListItemText
              primary={`${vehicle.depotNumber ?? '—'} · ${vehicle.stateNumber ?? ''}`}
              secondary={[
                vehicle.routeName,
                `${vehicle.cameras.length} кам.`,
                translate(vehicle.online ? 'video.online.online' : 'video.online.offline'),
              ]
                .filter(Boolean)
                .join(' · ')}
            />
          </ListItemButton>
        ))}
        {data && data.list.length === 0 && (
          <Typography sx={{ p: 1 }} color="text.secondary">
            {translate('video.online.noVehicles')}
          </Typography>
        )}
      </List>
    </Box>
  );
}
