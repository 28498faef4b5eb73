import { useCallback, useMemo } from 'react';
import { Box } from '@mui/material';
import type { AdasIncidentRow } from '../../shared/reports/adas';
import { BaseMap } from '../map/base/BaseMap';
import { IncidentsLayer } from '../map/layers/IncidentsLayer';

/** The small map of one incident (spec section 9: small maps start at zoom 16), its point in the type's colour. */
export default function IncidentMap({ incident }: { incident: AdasIncidentRow & { lat: number; lon: number } }) {
  const incidents = useMemo(() => [incident], [incident]);
  const colourOf = useCallback(() => incident.incident_color ?? '#d62728', [incident.incident_color]);
  return (
    <Box sx={{ position: 'relative', height: 240, minWidth: 280, flex: 1 }}>
      <BaseMap key={incident.id} center={[incident.lat, incident.lon]} zoom={16} testId="incident-map">
        <IncidentsLayer incidents={incidents} colourOf={colourOf} />
      </BaseMap>
    </Box>
  );
}
