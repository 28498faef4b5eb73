import { useEffect, useState } from 'react';
import { Alert, Stack } from '@mui/material';
import { useT } from '../../web/i18n/translate';
import { useLayerErrors, useStreamState } from '../../web/map/mapState';

/** A reconnect shorter than this (a server restart, a proxy's timeout) goes unmentioned. */
export const STREAM_DOWN_NOTICE_MS = 3000;

/** True once `flag` has held for `ms`. */
function useLasting(flag: boolean, ms: number): boolean {
  const [lasting, setLasting] = useState(false);
  useEffect(() => {
    if (!flag) {
      setLasting(false);
      return;
    }
    const timer = setTimeout(() => setLasting(true), ms);
    return () => clearTimeout(timer);
  }, [flag, ms]);
  return flag && lasting;
}

/** Messages over the map: the geo stream is down (and reconnecting), a layer's data did not load. */
export function MapStatus({ live }: { live: boolean }) {
  const t = useT();
  const stream = useStreamState();
  const errors = useLayerErrors();
  const failed = Object.entries(errors)
    .filter(([, bad]) => bad)
    .map(([layer]) => t(`mapView.layers.${layer}`));
  const streamDown = useLasting(live && ['connecting', 'retrying', 'denied'].includes(stream.status), STREAM_DOWN_NOTICE_MS);
  if (!streamDown && failed.length === 0) return null;
  return (
    <Stack
      spacing={0.5}
      sx={{ position: 'absolute', top: 8, left: '50%', transform: 'translateX(-50%)', zIndex: 1000, maxWidth: '90%' }}
      data-testid="map-status"
    >
      {streamDown && (
        <Alert severity="warning" variant="filled" sx={{ py: 0 }}>
          {stream.status === 'denied' ? t('mapView.stream.denied') : t('mapView.stream.retrying')}
        </Alert>
      )}
      {failed.length > 0 && (
        <Alert severity="error" sx={{ py: 0 }}>
          {t('mapView.layerFailed', { layers: failed.join(', ') })}
        </Alert>
      )}
    </Stack>
  );
}
