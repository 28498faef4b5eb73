import { Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import L from 'leaflet';
import { useEffect, useRef, useState } from 'react';
import { useTranslate } from 'react-admin';
import { useMap } from 'react-leaflet';
import { BaseMap } from '../../../web/map/base/BaseMap';
import { SHAPE_STYLE } from '../../../web/handbooks/inputs/inputMaps';
import {
  geometryBounds,
  geometryToWkt,
  type Geometry,
  type GeometryKind,
  type LatLon,
  type PolygonRings,
} from '../../../web/handbooks/inputs/wktGeometry';

const pairOf = (latLng: L.LatLng): LatLon => [latLng.lat, latLng.lng];

type Nested = L.LatLng | Nested[];

/** A polygon layer's rings: Leaflet nests them one level deeper for a multipolygon layer. */
function polygonsOf(latLngs: Nested[]): PolygonRings[] {
  if (!latLngs.length) return [];
  if (latLngs[0] instanceof L.LatLng) return [[(latLngs as L.LatLng[]).map(pairOf)]];
  if ((latLngs[0] as Nested[])[0] instanceof L.LatLng) return [(latLngs as L.LatLng[][]).map((ring) => ring.map(pairOf))];
  return (latLngs as Nested[][]).flatMap((polygon) => polygonsOf(polygon));
}

function linesOf(latLngs: Nested[]): LatLon[][] {
  if (!latLngs.length) return [];
  if (latLngs[0] instanceof L.LatLng) return [(latLngs as L.LatLng[]).map(pairOf)];
  return (latLngs as Nested[][]).flatMap((line) => linesOf(line));
}

/** The geometry of the shapes on the editor's map now. */
function collect(map: L.Map, group: L.FeatureGroup, kind: GeometryKind, multi: boolean): Geometry {
  const layers = group.getLayers().filter((layer) => map.hasLayer(layer));
  if (kind === 'polygon') {
    const polygons = layers
      .filter((layer): layer is L.Polygon => layer instanceof L.Polygon)
      .flatMap((layer) => polygonsOf(layer.getLatLngs() as Nested[]));
    return { kind, multi, polygons };
  }
  const lines = layers
    .filter((layer): layer is L.Polyline => layer instanceof L.Polyline && !(layer instanceof L.Polygon))
    .flatMap((layer) => linesOf(layer.getLatLngs() as Nested[]));
  return { kind, multi, lines };
}

interface EditorHandle {
  map: L.Map;
  /** The WKT of what is drawn, null when nothing is. */
  result(): string | null;
}

/**
 * Render-less: the geoman toolbar (draw a polygon or rectangle, or a line; edit vertices, drag, remove),
 * the current shapes as editable layers (each part of a multipolygon its own layer), and a drawn shape
 * replacing the others.
 */
function GeomanEditor({
  kind,
  initial,
  handle,
}: {
  kind: GeometryKind;
  initial: Geometry | null;
  handle: (editor: EditorHandle | null) => void;
}) {
  const map = useMap();
  useEffect(() => {
    const group = L.featureGroup().addTo(map);
    let multi = initial?.multi ?? false;
    if (initial?.kind === 'polygon') for (const rings of initial.polygons) L.polygon(rings, SHAPE_STYLE).addTo(group);
    if (initial?.kind === 'line') for (const line of initial.lines) L.polyline(line, SHAPE_STYLE).addTo(group);
    const bounds = initial && geometryBounds(initial);
    if (bounds) map.fitBounds(bounds, { padding: [40, 40], maxZoom: 17, animate: false });

    map.pm.setLang('ru');
    map.pm.setGlobalOptions({ layerGroup: group, allowSelfIntersection: kind === 'line', snappable: true, pathOptions: SHAPE_STYLE });
    map.pm.addControls({
      position: 'topleft',
      drawMarker: false,
      drawCircleMarker: false,
      drawCircle: false,
      drawText: false,
      drawPolyline: kind === 'line',
      drawPolygon: kind === 'polygon',
      drawRectangle: kind === 'polygon',
      cutPolygon: false,
      rotateMode: false,
      editMode: true,
      dragMode: true,
      removalMode: true,
    });
    const onCreate = (event: { layer: L.Layer }) => {
      for (const layer of group.getLayers()) if (layer !== event.layer) group.removeLayer(layer);
      if (!group.hasLayer(event.layer)) group.addLayer(event.layer);
      multi = false;
    };
    const onRemove = (event: { layer: L.Layer }) => {
      group.removeLayer(event.layer);
    };
    map.on('pm:create', onCreate);
    map.on('pm:remove', onRemove);
    handle({ map, result: () => geometryToWkt(collect(map, group, kind, multi)) });
    return () => {
      handle(null);
      map.off('pm:create', onCreate);
      map.off('pm:remove', onRemove);
      // geoman warns when a mode that is off is turned off
      if (map.pm.globalDrawModeEnabled()) map.pm.disableDraw();
      if (map.pm.globalEditModeEnabled()) map.pm.disableGlobalEditMode();
      if (map.pm.globalDragModeEnabled()) map.pm.disableGlobalDragMode();
      if (map.pm.globalRemovalModeEnabled()) map.pm.disableGlobalRemovalMode();
      map.pm.removeControls();
      group.remove();
    };
  }, [map, kind, initial, handle]);
  return null;
}

export interface GeometryEditorDialogProps {
  kind: GeometryKind;
  label: string;
  initial: Geometry | null;
  /** The new WKT, or null when every shape was removed. */
  onApply: (wkt: string | null) => void;
  onClose: () => void;
}

/** The large map editor of a polygon or line column ('Применить' gives the drawn shape as WKT). Loaded on first use. */
export default function GeometryEditorDialog({ kind, label, initial, onApply, onClose }: GeometryEditorDialogProps) {
  const translate = useTranslate();
  const [ready, setReady] = useState(false);
  const editor = useRef<EditorHandle | null>(null);
  const [handle] = useState(() => (value: EditorHandle | null) => {
    editor.current = value;
    setReady(value !== null);
  });

  const close = (_event: unknown, reason?: 'backdropClick' | 'escapeKeyDown') => {
    // a click beside the dialog must not throw the drawing away; Escape first ends a drawing in progress
    if (reason === 'backdropClick') return;
    const map = editor.current?.map;
    if (reason === 'escapeKeyDown' && map?.pm.globalDrawModeEnabled()) {
      map.pm.disableDraw();
      return;
    }
    onClose();
  };

  return (
    <Dialog
      open
      onClose={close}
      maxWidth={false}
      fullWidth
      aria-labelledby="handbook-geometry-title"
      slotProps={{ paper: { sx: { width: '95vw', height: '90vh', maxWidth: 'none' } } }}
    >
      <DialogTitle id="handbook-geometry-title">{translate('handbookEditor.map.editTitle', { label })}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
        <Typography variant="body2" color="text.secondary">
          {translate(kind === 'polygon' ? 'handbookEditor.map.polygonHint' : 'handbookEditor.map.lineHint')}
        </Typography>
        <Box data-testid="geometry-editor-map" sx={{ position: 'relative', flex: 1, minHeight: 300, zIndex: 0 }}>
          <BaseMap
            geoman
            doubleClickZoom={false}
            loading={
              <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'center', height: '100%', gap: 1 }}>
                <CircularProgress size={20} />
                <Typography variant="body2">{translate('handbookEditor.map.loading')}</Typography>
              </Box>
            }
          >
            <GeomanEditor kind={kind} initial={initial} handle={handle} />
          </BaseMap>
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('handbookEditor.map.cancel')}</Button>
        <Button variant="contained" disabled={!ready} onClick={() => editor.current && onApply(editor.current.result())}>
          {translate('handbookEditor.map.apply')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
