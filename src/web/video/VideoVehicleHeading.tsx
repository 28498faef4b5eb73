import { Box, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { VideoVehicle } from '../../shared/video/api';
import { useApiQuery } from '../providers/queries';
import { videoVehicle } from './videoApi';

/** The chosen vehicle's recorder and cameras, loaded again when the choice changes. */
export function useVideoVehicle(vehicleId: number | undefined): VideoVehicle | null {
  const { data } = useApiQuery(['video', 'vehicle', vehicleId], (signal) => videoVehicle(vehicleId!, signal), { enabled: !!vehicleId });
  return (vehicleId && data) || null;
}

/** A vehicle's numbers, model, whether it is online and where its picture comes from. */
export function VideoVehicleHeading({ vehicle }: { vehicle: VideoVehicle }) {
  const translate = useTranslate();
  return (
    <Typography variant="subtitle1" sx={{ fontWeight: 600 }} data-testid="video-vehicle-heading">
      {`ТС ${vehicle.depotNumber ?? vehicle.vehicleId} · ${vehicle.stateNumber ?? ''} · ${vehicle.model ?? ''} · `}
      <Box component="span" sx={{ color: vehicle.online ? 'success.main' : 'text.secondary' }}>
        {translate(vehicle.online ? 'video.online.online' : 'video.online.offline')}
      </Box>
      {` · ${translate(`video.online.source.${vehicle.source}`)}`}
    </Typography>
  );
}
