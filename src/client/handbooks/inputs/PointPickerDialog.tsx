import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import L from 'leaflet';
import { useMemo, useState } from 'react';
import { Marker, useMapEvents } from 'react-leaflet';
import { useTranslate } from 'react-admin';
import { COORDINATE_DECIMALS, PRIMARY_COLOR } from '../../../shared/constants';
import { BaseMap } from '../../../web/map/base/BaseMap';
import { formatPointText } from './pointText';

export interface PickedPoint {
  lat: number;
  lon: number;
}

/** Zoom of the picker when the record already has a point (a street block). */
const POINT_ZOOM = 15;

/**
 * A marker drawn by CSS: Leaflet's default icon guesses its image URLs from its stylesheet, which a
 * bundler breaks; a div icon needs no image.
 */
const PIN = L.divIcon({
  className: 'handbook-point-pin',
  html: `<div style="width:18px;height:18px;border-radius:50%;background:${PRIMARY_COLOR};border:3px solid #fff;box-shadow:0 0 4px rgba(0,0,0,.6);box-sizing:border-box"></div>`,
  iconSize: [18, 18],
  iconAnchor: [9, 9],
});

const round = (value: number): number => Number(value.toFixed(COORDINATE_DECIMALS));
const wrapLon = (lon: number): number => ((((lon + 180) % 360) + 360) % 360) - 180;

function ClickToPlace({ onPick }: { onPick: (point: PickedPoint) => void }) {
  useMapEvents({ click: (event) => onPick({ lat: round(event.latlng.lat), lon: round(wrapLon(event.latlng.lng)) }) });
  return null;
}

export interface PointPickerDialogProps {
  label: string;
  /** The point in the form, if any: the map opens on it. */
  initial: PickedPoint | null;
  onApply: (point: PickedPoint) => void;
  onClose: () => void;
}

/**
 * The map picker of a coordinate-pair input: a click puts a draggable marker; 'Выбрать' gives the point
 * (rounded to the coordinate decimals), 'Отмена' or Escape closes without change. Loaded on first use.
 */
export default function PointPickerDialog({ label, initial, onApply, onClose }: PointPickerDialogProps) {
  const translate = useTranslate();
  const [point, setPoint] = useState<PickedPoint | null>(initial);
  const handlers = useMemo<L.LeafletEventHandlerFnMap>(
    () => ({
      dragend: (event) => {
        const position = (event.target as L.Marker).getLatLng();
        setPoint({ lat: round(position.lat), lon: round(wrapLon(position.lng)) });
      },
    }),
    [],
  );

  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth aria-labelledby="handbook-point-title">
      <DialogTitle id="handbook-point-title">{translate('handbookEditor.map.pointTitle', { label })}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {translate('handbookEditor.map.pointHint')}
        </Typography>
        <Box data-testid="point-picker-map" sx={{ position: 'relative', height: '60vh', minHeight: 300, zIndex: 0 }}>
          <BaseMap
            center={initial ? [initial.lat, initial.lon] : undefined}
            zoom={initial ? POINT_ZOOM : undefined}
            doubleClickZoom={false}
          >
            <ClickToPlace onPick={setPoint} />
            {point && <Marker position={[point.lat, point.lon]} icon={PIN} draggable eventHandlers={handlers} />}
          </BaseMap>
        </Box>
        <Typography variant="body2" sx={{ mt: 1 }} data-testid="point-picker-value">
          {point
            ? translate('handbookEditor.map.chosen', { point: formatPointText(point.lat, point.lon) })
            : translate('handbookEditor.map.noPoint')}
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('handbookEditor.map.cancel')}</Button>
        <Button variant="contained" disabled={!point} onClick={() => point && onApply(point)}>
          {translate('handbookEditor.map.choose')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
