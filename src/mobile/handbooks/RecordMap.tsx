import { useEffect } from 'react';
import { CircleMarker, Polygon, Polyline, useMap } from 'react-leaflet';
import { BaseMap } from '../../web/map/base/BaseMap';
import { SHAPE_STYLE } from '../../web/handbooks/inputs/inputMaps';
import type { Geometry, LatLon } from '../../web/handbooks/inputs/wktGeometry';

export interface RecordShapes {
  points: LatLon[];
  geometries: Geometry[];
}

function boundsOf({ points, geometries }: RecordShapes): LatLon[] {
  const all: LatLon[] = [...points];
  for (const geometry of geometries) {
    if (geometry.kind === 'polygon') for (const rings of geometry.polygons) for (const ring of rings) all.push(...ring);
    else for (const line of geometry.lines) all.push(...line);
  }
  return all;
}

function FitShapes({ shapes }: { shapes: RecordShapes }) {
  const map = useMap();
  useEffect(() => {
    const all = boundsOf(shapes);
    if (all.length === 1) map.setView(all[0], 16, { animate: false });
    else if (all.length > 1) map.fitBounds(all, { padding: [16, 16], maxZoom: 16, animate: false });
  }, [map, shapes]);
  return null;
}

/**
 * A record's place on the console's base map (field-app spec 2.6): its coordinates as a marker, a polygon zone,
 * a route's trip lines. Loaded on demand: the map's code stays out of the list.
 */
export default function RecordMap({ shapes }: { shapes: RecordShapes }) {
  return (
    <BaseMap testId="handbook-record-map">
      <FitShapes shapes={shapes} />
      {shapes.points.map((point, i) => (
        <CircleMarker key={`p${i}`} center={point} radius={8} pathOptions={{ ...SHAPE_STYLE, fillOpacity: 0.8 }} />
      ))}
      {shapes.geometries.map((geometry, i) =>
        geometry.kind === 'polygon'
          ? geometry.polygons.map((rings, j) => <Polygon key={`g${i}-${j}`} positions={rings} pathOptions={SHAPE_STYLE} />)
          : geometry.lines.map((line, j) => <Polyline key={`g${i}-${j}`} positions={line} pathOptions={SHAPE_STYLE} />),
      )}
    </BaseMap>
  );
}
