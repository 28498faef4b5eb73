import { useRef, useState } from 'react';
import { Box, Button, Chip, CircularProgress, IconButton, Stack, Tab, Tabs, Tooltip, Typography } from '@mui/material';
import InfoIcon from '@mui/icons-material/InfoOutlined';
import { useParams, useSearchParams } from 'react-router';
import { VideoPlayer } from '../../web/video/VideoPlayer';
import { useVideoVehicle } from '../../web/video/VideoVehicleHeading';
import { startLive, streamAddress } from '../../web/video/videoApi';
import { useT } from '../../web/i18n/translate';
import { useCurrentUser } from '../../web/stores/sessionStore';
import { CameraPlayer } from './CameraPlayer';
import { typeNameOf, VehicleInfoPanel } from './VehicleInfoPanel';
import { useVehicleInfo } from './useVehicleInfo';

type VideoTab = 'grid' | 'single';

/**
 * /video/{vehicle} (field-app spec 2.4, 4): a header with the vehicle (type, model, route) and the info toggle,
 * then two tabs: the grid of every camera (the tab numbered by camera count) and one camera with mute and
 * fullscreen. One live view (POST /api/v1/video/empty) serves every camera; each stream's address comes from
 * GET /api/v1/video/online/{request}/{camera}; the player retries per section 4. The tab and camera are in
 * the address (?tab=single&camera=2), so the phone's back button returns to the grid.
 */
export default function VehicleVideoScreen() {
  const t = useT();
  const params = useParams();
  const vehicleId = Number(params.vehicle) || undefined;
  const vehicle = useVideoVehicle(vehicleId);
  const info = useVehicleInfo(vehicleId);
  const user = useCurrentUser();
  const [showInfo, setShowInfo] = useState(false);
  const [search, setSearch] = useSearchParams();
  const tab: VideoTab = search.get('tab') === 'single' ? 'single' : 'grid';
  const live = useRef<{ vehicleId: number; request: Promise<number> } | null>(null);
  const cameras = vehicle?.cameras ?? [];
  const camera = cameras.find((c) => c.index === Number(search.get('camera')))?.index ?? cameras[0]?.index;
  /**
   * One live view for every camera, asked when the first player needs it (after the route change that
   * cancelled the previous page's requests, not while rendering) and asked again after a failure.
   */
  const liveRequest = (id: number): Promise<number> => {
    if (live.current?.vehicleId !== id) {
      const request = startLive(id);
      live.current = { vehicleId: id, request };
      request.catch(() => {
        if (live.current?.request === request) live.current = null;
      });
    }
    return live.current.request;
  };
  const source = (index: number) => async () => {
    if (!vehicleId) throw new Error('no vehicle');
    return (await streamAddress(await liveRequest(vehicleId), index)).playUrl;
  };
  const open = (next: VideoTab, index?: number) => {
    const query: Record<string, string> = { tab: next };
    if (index !== undefined) query.camera = String(index);
    setSearch(query, { replace: next === tab });
  };

  if (!vehicle)
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
        <CircularProgress />
      </Box>
    );
  const typeName = typeNameOf(info?.routeType, user?.transporttype);
  const heading = [typeName, info?.model ?? vehicle.model, info?.route ? `№ ${info.route}` : null].filter(Boolean).join(' · ');
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: 0 }} data-testid="vehicle-video" data-vehicle-id={vehicle.vehicleId}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 2, py: 1 }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography
            variant="subtitle1"
            sx={{ fontWeight: 600 }}
            noWrap
            data-testid="video-header"
          >{`ТС ${vehicle.depotNumber ?? vehicle.vehicleId}`}</Typography>
          <Typography variant="body2" color="text.secondary" noWrap>
            {heading}
          </Typography>
        </Box>
        <Tooltip title={t(showInfo ? 'mobile.video.hideInfo' : 'mobile.video.info')}>
          <IconButton
            color={showInfo ? 'primary' : 'default'}
            onClick={() => setShowInfo(!showInfo)}
            aria-pressed={showInfo}
            data-testid="video-info-toggle"
          >
            <InfoIcon />
          </IconButton>
        </Tooltip>
      </Box>
      {showInfo && <VehicleInfoPanel vehicle={vehicle} info={info} typeName={typeName} />}
      <Tabs value={tab} onChange={(_, next: VideoTab) => open(next, next === 'single' ? camera : undefined)} variant="fullWidth">
        <Tab value="grid" label={t('mobile.video.grid', { count: cameras.length })} data-testid="video-tab-grid" />
        <Tab value="single" label={t('mobile.video.single')} data-testid="video-tab-single" disabled={cameras.length === 0} />
      </Tabs>
      {cameras.length === 0 && (
        <Typography sx={{ p: 2 }} color="text.secondary">
          {t('mobile.video.noCameras')}
        </Typography>
      )}
      {tab === 'grid' && (
        <Box
          sx={{ display: 'grid', gridTemplateColumns: cameras.length > 1 ? '1fr 1fr' : '1fr', gap: 0.5, p: 0.5 }}
          data-testid="video-grid"
        >
          {cameras.map((c) => (
            <Box key={c.index} sx={{ aspectRatio: '4 / 3' }} data-testid="video-tile" data-camera={c.index}>
              <VideoPlayer
                sourceKey={`${vehicle.vehicleId}-${c.index}`}
                source={source(c.index)}
                overlay={
                  <Button
                    size="small"
                    onClick={() => open('single', c.index)}
                    sx={{ color: '#fff', bgcolor: 'rgba(0,0,0,0.5)', minWidth: 0, px: 0.75, py: 0 }}
                    data-testid="video-open-camera"
                  >
                    {c.index}
                  </Button>
                }
              />
            </Box>
          ))}
        </Box>
      )}
      {tab === 'single' && camera !== undefined && (
        <Stack spacing={1} sx={{ p: 1 }}>
          <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
            {cameras.map((c) => (
              <Chip
                key={c.index}
                label={`${c.index}. ${c.title}`}
                color={c.index === camera ? 'primary' : 'default'}
                onClick={() => open('single', c.index)}
                data-testid={`video-camera-${c.index}`}
              />
            ))}
          </Box>
          <CameraPlayer key={`${vehicle.vehicleId}-${camera}`} sourceKey={`${vehicle.vehicleId}-${camera}`} source={source(camera)} />
        </Stack>
      )}
    </Box>
  );
}
