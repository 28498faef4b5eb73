import { Box } from '@mui/material';
import type { IncidentEvent } from '../../../shared/map';
import { useT } from '../../../web/i18n/translate';
import { formatDateTime } from '../../../shared/format';
import { formatLatLon } from '../../../shared/format';
import { incidentTypeName, useIncidentTypes } from '../../../web/map/useIncidentTypes';
import { PopupRows, PopupTitle } from '../../../web/map/popup/PopupRows';

/** A driver-assistance incident: type, time, speed, garage number. */
export function MapPopupIncident({ incident }: { incident: IncidentEvent }) {
  const t = useT();
  const types = useIncidentTypes(true);
  return (
    <Box data-testid="map-popup-incident">
      <PopupTitle>{incidentTypeName(types, incident.incident_type)}</PopupTitle>
      <PopupRows
        rows={[
          [t('mapView.popup.time'), formatDateTime(incident.tm)],
          [t('mapView.popup.speed'), incident.speed !== null ? t('mapView.kmh', { speed: Math.round(incident.speed) }) : ''],
          [t('mapView.popup.garageNumber'), incident.depot_number],
          [t('mapView.popup.coordinates'), formatLatLon(incident.lat, incident.lon)],
        ]}
      />
    </Box>
  );
}
