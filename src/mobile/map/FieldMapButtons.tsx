import type { ReactNode } from 'react';
import { Fab, Stack } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DepartureBoardIcon from '@mui/icons-material/DepartureBoardOutlined';
import LayersIcon from '@mui/icons-material/LayersOutlined';
import MyLocationIcon from '@mui/icons-material/MyLocation';
import RemoveIcon from '@mui/icons-material/Remove';
import SearchIcon from '@mui/icons-material/Search';
import { useT } from '../../web/i18n/translate';

function MapFab({
  label,
  testId,
  onClick,
  disabled,
  children,
}: {
  label: string;
  testId: string;
  onClick: () => void;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <Fab
      size="small"
      color="default"
      aria-label={label}
      title={label}
      data-testid={testId}
      onClick={onClick}
      disabled={disabled}
      sx={{ boxShadow: 2 }}
    >
      {children}
    </Fab>
  );
}

/**
 * The map's right-hand buttons (field-app spec 2.3): layers, zoom in, zoom out, entity search (not in the
 * ticket-control modes) and centre on the user; with the live timetable (code 44) the arrivals near the user.
 */
export function FieldMapButtons({
  onLayers,
  onZoomIn,
  onZoomOut,
  onSearch,
  onArrivals,
  onLocate,
  locateDisabled,
}: {
  onLayers: () => void;
  onZoomIn: () => void;
  onZoomOut: () => void;
  /** Absent in the control modes. */
  onSearch?: () => void;
  /** Absent without the live timetable's right or while its module is off. */
  onArrivals?: () => void;
  onLocate: () => void;
  locateDisabled: boolean;
}) {
  const t = useT();
  return (
    <Stack spacing={1.25} sx={{ position: 'absolute', right: 12, top: 12, zIndex: 1000 }} data-testid="field-map-buttons">
      <MapFab label={t('fieldMap.buttons.layers')} testId="field-map-layers-button" onClick={onLayers}>
        <LayersIcon />
      </MapFab>
      <MapFab label={t('fieldMap.buttons.zoomIn')} testId="field-map-zoom-in" onClick={onZoomIn}>
        <AddIcon />
      </MapFab>
      <MapFab label={t('fieldMap.buttons.zoomOut')} testId="field-map-zoom-out" onClick={onZoomOut}>
        <RemoveIcon />
      </MapFab>
      {onSearch && (
        <MapFab label={t('fieldMap.buttons.search')} testId="field-map-search-button" onClick={onSearch}>
          <SearchIcon />
        </MapFab>
      )}
      {onArrivals && (
        <MapFab label={t('fieldMap.buttons.arrivals')} testId="field-map-arrivals-button" onClick={onArrivals}>
          <DepartureBoardIcon />
        </MapFab>
      )}
      <MapFab label={t('fieldMap.buttons.locate')} testId="field-map-locate" onClick={onLocate} disabled={locateDisabled}>
        <MyLocationIcon />
      </MapFab>
    </Stack>
  );
}
