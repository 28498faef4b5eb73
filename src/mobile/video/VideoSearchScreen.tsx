import { Box } from '@mui/material';
import { useNavigate } from 'react-router';
import { VehicleSearchPanel } from '../../web/video/VehicleSearchPanel';

/**
 * /video (field-app spec 2.4): the vehicle search of the console's video (branch, route, type, garage number or
 * plate); a vehicle opens its video.
 */
export default function VideoSearchScreen() {
  const navigate = useNavigate();
  return (
    <Box sx={{ p: 1.5, display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0 }} data-testid="video-search-screen">
      <VehicleSearchPanel fullWidth onSelect={(id) => void navigate(`/video/${id}`)} />
    </Box>
  );
}
