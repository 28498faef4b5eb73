import { useMemo } from 'react';
import { Box, Button, Tab, Tabs } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { useTranslate } from 'react-admin';
import { VideoPlayer } from '../../web/video/VideoPlayer';
import { startLive, streamAddress } from '../../web/video/videoApi';
import { useVideoVehicle, VideoVehicleHeading } from '../../web/video/VideoVehicleHeading';

/** /video/online/live/{vehicle}/{camera}: one camera full size, the others a tab away. */
export function LiveFullSize() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const params = useParams();
  const vehicleId = Number(params.vehicle) || undefined;
  const camera = Number(params.camera);
  const vehicle = useVideoVehicle(vehicleId);
  const live = useMemo(() => (vehicleId ? startLive(vehicleId) : Promise.reject(new Error('no vehicle'))), [vehicleId]);
  return (
    <Box sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 1 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
        <Button size="small" startIcon={<ArrowBackIcon />} component={RouterLink} to={`/video/online?vehicle=${vehicleId ?? ''}`}>
          {translate('video.online.back')}
        </Button>
        {vehicle && <VideoVehicleHeading vehicle={vehicle} />}
      </Box>
      {vehicle && (
        <Tabs
          value={vehicle.cameras.some((c) => c.index === camera) ? camera : false}
          onChange={(_, next: number) => navigate(`/video/online/live/${vehicleId}/${next}`)}
        >
          {vehicle.cameras.map((c) => (
            <Tab key={c.index} value={c.index} label={`${c.index}. ${c.title}`} />
          ))}
        </Tabs>
      )}
      <VideoPlayer
        testId="video-live"
        sourceKey={`${vehicleId}-${camera}`}
        source={async () => (await streamAddress(await live, camera)).playUrl}
        controls
        height="calc(100vh - 230px)"
      />
    </Box>
  );
}
