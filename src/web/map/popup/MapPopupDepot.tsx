import { Box, Link } from '@mui/material';
import { useT } from '../../i18n/translate';
import { formatLatLon } from '../../../shared/format';
import type { Depot } from '../mapState';
import { PopupRows, PopupTitle } from './PopupRows';

/** An enterprise, a branch or a department: title, address, phone. */
export function MapPopupDepot({ kind, depot }: { kind: 'agency' | 'branch' | 'department'; depot: Depot }) {
  const t = useT();
  return (
    <Box data-testid="map-popup-depot">
      <PopupTitle>{depot.title}</PopupTitle>
      <PopupRows
        rows={[
          [t('mapView.popup.kind'), t(`mapView.popup.kinds.${kind}`)],
          [t('mapView.popup.address'), depot.address],
          [t('mapView.popup.phone'), depot.phone ? <Link href={`tel:${depot.phone.replace(/[^\d+]/g, '')}`}>{depot.phone}</Link> : null],
          [t('mapView.popup.coordinates'), depot.lat !== null && depot.lon !== null ? formatLatLon(depot.lat, depot.lon) : ''],
        ]}
      />
    </Box>
  );
}
