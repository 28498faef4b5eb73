import { Box } from '@mui/material';
import { formatLatLon } from '../../shared/format';
import { useCursor } from '../../web/map/mapState';

/** The cursor's coordinates to 5 decimals, in the map's bottom-left corner. */
export function MapCursorCoordinates() {
  const cursor = useCursor();
  if (!cursor) return null;
  return (
    <Box
      data-testid="map-cursor"
      sx={{
        position: 'absolute',
        left: 8,
        bottom: 8,
        zIndex: 1000,
        px: 1,
        py: 0.25,
        borderRadius: 1,
        fontSize: 12,
        fontFamily: 'monospace',
        bgcolor: 'rgba(255,255,255,0.85)',
        pointerEvents: 'none',
      }}
    >
      {formatLatLon(cursor[0], cursor[1])}
    </Box>
  );
}
