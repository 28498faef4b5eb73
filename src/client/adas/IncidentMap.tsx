import { useCallback, useMemo } from 'react';
import { Box } from '@mui/material';
import { Polyline } from 'react-leaflet';
import type { AdasIncidentRow } from '../../shared/reports/adas';
import { BaseMap } from '../../web/map/base/BaseMap';
import { IncidentsLayer } from '../../web/map/layers/IncidentsLayer';
import { parseWktLineString } from '../../web/map/wkt';

/** The spec's default route colour (section 9), under the incident's point. */
const TRIP_STYLE = { color: '#1e63c6', weight: 3, opacity: 0.7 };

/**
 * The small map of one incident (spec section 9: small maps start at zoom 16): its point in the type's colour
 * over the line of the trip it was on, when known.
 */
export default function IncidentMap({
  incident,
  tripLine,
}: {
  incident: AdasIncidentRow & { lat: number; lon: number };
  tripLine?: string | null;
}) {
  const incidents = useMemo(() => [incident], [incident]);
  const line = useMemo(() => parseWktLineString(tripLine), [tripLine]);
  const colourOf = useCallback(() => incident.incident_color ?? '#d62728', [incident.incident_color]);
  return (
    <Box sx={{ position: 'relative', height: 240, minWidth: 280, flex: 1 }}>
      <BaseMap key={incident.id} center={[incident.lat, incident.lon]} zoom={16} testId="incident-map">
        {line && <Polyline positions={line} pathOptions={TRIP_STYLE} interactive={false} />}
        <IncidentsLayer incidents={incidents} colourOf={colourOf} />
      </BaseMap>
    </Box>
  );
}
