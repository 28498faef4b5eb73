import { useMemo, useState } from 'react';
import { Box, IconButton, Pagination, Tooltip, Typography } from '@mui/material';
import OpenInFullIcon from '@mui/icons-material/OpenInFull';
import { Link as RouterLink } from 'react-router';
import { useTranslate } from 'react-admin';
import type { VideoVehicle } from '../../shared/video/api';
import { VideoPlayer } from '../../web/video/VideoPlayer';
import { startLive, streamAddress } from '../../web/video/videoApi';

export const GRID_LAYOUTS = [1, 4, 6, 9] as const;
export type GridLayout = (typeof GRID_LAYOUTS)[number];
const COLUMNS: Record<GridLayout, number> = { 1: 1, 4: 2, 6: 3, 9: 3 };

/**
 * A vehicle's cameras in a grid of 1, 4, 6 or 9 tiles (SCREENS.md, "Video"), each playing its live stream
 * with its own state, and opening full size. One live view (POST /api/v1/video/empty) serves every tile.
 */
export function CameraGrid({ vehicle, layout }: { vehicle: VideoVehicle; layout: GridLayout }) {
  const translate = useTranslate();
  const [page, setPage] = useState(1);
  const live = useMemo(() => startLive(vehicle.vehicleId), [vehicle.vehicleId]);
  const shown = vehicle.cameras.slice((page - 1) * layout, page * layout);
  const pages = Math.ceil(vehicle.cameras.length / layout);
  const rows = Math.ceil(layout / COLUMNS[layout]);
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1, flex: 1, minHeight: 0 }}>
      <Box
        data-testid="video-grid"
        sx={{
          display: 'grid',
          gridTemplateColumns: `repeat(${COLUMNS[layout]}, 1fr)`,
          gridTemplateRows: `repeat(${rows}, minmax(0, 1fr))`,
          gap: 1,
          height: 'calc(100vh - 200px)',
          minHeight: 300,
        }}
      >
        {Array.from({ length: layout }, (_, i) => shown[i]).map((camera, i) =>
          camera ? (
            <Box key={`${vehicle.vehicleId}-${camera.index}`} data-testid="video-tile" data-camera={camera.index} sx={{ minHeight: 0 }}>
              <VideoPlayer
                sourceKey={`${vehicle.vehicleId}-${camera.index}`}
                source={async () => (await streamAddress(await live, camera.index)).playUrl}
                overlay={
                  <>
                    <Typography variant="caption" sx={{ color: '#fff', bgcolor: 'rgba(0,0,0,0.5)', px: 0.5, borderRadius: 0.5 }}>
                      {`${camera.index}. ${camera.title}`}
                    </Typography>
                    <Tooltip title={translate('video.online.fullSize')}>
                      <IconButton
                        size="small"
                        component={RouterLink}
                        to={`/video/online/live/${vehicle.vehicleId}/${camera.index}`}
                        sx={{ color: '#fff', bgcolor: 'rgba(0,0,0,0.5)' }}
                        data-testid="video-full-size"
                      >
                        <OpenInFullIcon fontSize="inherit" />
                      </IconButton>
                    </Tooltip>
                  </>
                }
              />
            </Box>
          ) : (
            <Box key={`empty-${i}`} sx={{ bgcolor: 'grey.900', borderRadius: 1, opacity: 0.4 }} />
          ),
        )}
      </Box>
      {pages > 1 && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
          <Pagination count={pages} page={page} onChange={(_, next) => setPage(next)} size="small" />
          <Typography variant="body2" color="text.secondary">
            {translate('video.online.page', {
              from: (page - 1) * layout + 1,
              to: (page - 1) * layout + shown.length,
              count: vehicle.cameras.length,
            })}
          </Typography>
        </Box>
      )}
    </Box>
  );
}
