import { Box, Divider, ToggleButton, ToggleButtonGroup } from '@mui/material';
import type { MapFilters } from '../../shared/map';
import { LAYOUT } from '../../shared/constants';
import { useT } from '../../web/i18n/translate';
import { MapFilterButton } from './filter/MapFilterButton';
import { MapLayersControl } from './MapLayersControl';
import type { MapFlags } from './mapLayers';
import { MapPositionControls } from './MapPositionControls';
import { MapSearch } from './MapSearch';
import { useReplayStore } from '../../web/map/replay/replayState';

export type MapMode = 'live' | 'previous';

interface MapToolbarProps {
  mode: MapMode;
  modes: MapMode[];
  onMode: (mode: MapMode) => void;
  filters: MapFilters | null;
  flags: MapFlags;
}

/**
 * The top panel (42 px high, spec section 9, its controls 40 px at most): live or previous data, search, filter,
 * layers, saved position.
 */
export function MapToolbar({ mode, modes, onMode, filters, flags }: MapToolbarProps) {
  const t = useT();
  const replay = useReplayStore();
  return (
    <Box
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 1,
        flex: 'none',
        height: LAYOUT.topPanel,
        boxSizing: 'border-box',
        px: 1,
        // one row whatever the width: a narrow window scrolls the panel rather than making it taller
        flexWrap: 'nowrap',
        overflowX: 'auto',
        overflowY: 'hidden',
        bgcolor: 'background.paper',
        borderBottom: 1,
        borderColor: 'divider',
        '& > *': { flexShrink: 0 },
      }}
      data-testid="map-toolbar"
    >
      {modes.length > 1 && (
        <ToggleButtonGroup size="small" exclusive value={mode} onChange={(_, value: MapMode | null) => value && onMode(value)}>
          {modes.map((m) => (
            <ToggleButton key={m} value={m} sx={{ py: 0.25, textTransform: 'none' }} data-testid={`map-mode-${m}`}>
              {t(`mapView.modes.${m}`)}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      )}
      <MapSearch filters={filters} onVehicle={mode === 'previous' ? (id) => replay.set((s) => ({ ...s, vehicleId: id })) : undefined} />
      <MapFilterButton filters={filters} />
      <Box sx={{ flex: 1 }} />
      <MapLayersControl flags={flags} />
      <Divider orientation="vertical" flexItem />
      <MapPositionControls />
    </Box>
  );
}
