import { Box, Button, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { Link as RouterLink, Route, Routes, useSearchParams } from 'react-router';
import { Title, useTranslate } from 'react-admin';
import { useRights } from '../../web/components/useRights';
import { CameraGrid, GRID_LAYOUTS, type GridLayout } from './CameraGrid';
import { LiveFullSize } from './LiveFullSize';
import { VehicleSearchPanel } from '../../web/video/VehicleSearchPanel';
import { useVideoVehicle, VideoVehicleHeading as VehicleHeading } from '../../web/video/VideoVehicleHeading';

/** /video/online: search a vehicle, watch its cameras in a grid of 1, 4, 6 or 9 (the vehicle and grid are in the URL). */
function OnlineGrid() {
  const translate = useTranslate();
  const [search, setSearch] = useSearchParams();
  const vehicleId = Number(search.get('vehicle')) || undefined;
  const layout = (GRID_LAYOUTS as readonly number[]).includes(Number(search.get('layout')))
    ? (Number(search.get('layout')) as GridLayout)
    : 4;
  const vehicle = useVideoVehicle(vehicleId);
  const mayRequest = useRights('/video/requests').create;
  const go = (next: { vehicle?: number; layout?: number }) =>
    setSearch({ vehicle: String(next.vehicle ?? vehicleId ?? ''), layout: String(next.layout ?? layout) });
  return (
    <Box sx={{ display: 'flex', gap: 2, p: 2, minHeight: 0 }}>
      <VehicleSearchPanel selected={vehicleId} onSelect={(id) => go({ vehicle: id })} />
      <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', gap: 1 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
          {vehicle ? (
            <VehicleHeading vehicle={vehicle} />
          ) : (
            <Typography color="text.secondary">{translate('video.online.chooseVehicle')}</Typography>
          )}
          <Box sx={{ flex: 1 }} />
          {vehicle && mayRequest && (
            <Button size="small" component={RouterLink} to={`/video/requests/create?vehicle=${vehicle.vehicleId}`}>
              {translate('video.online.requestArchive')}
            </Button>
          )}
          <Typography variant="body2">{translate('video.online.layout')}</Typography>
          <ToggleButtonGroup size="small" exclusive value={layout} onChange={(_, value: number | null) => value && go({ layout: value })}>
            {GRID_LAYOUTS.map((n) => (
              <ToggleButton key={n} value={n} data-testid={`video-layout-${n}`}>
                {n}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
        </Box>
        {vehicle && <CameraGrid key={`${vehicle.vehicleId}-${layout}`} vehicle={vehicle} layout={layout} />}
      </Box>
    </Box>
  );
}

export default function VideoOnlineScreen() {
  return (
    <>
      <Title title="menu.video.online" />
      <Routes>
        <Route path="live/:vehicle/:camera" element={<LiveFullSize />} />
        <Route path="*" element={<OnlineGrid />} />
      </Routes>
    </>
  );
}
