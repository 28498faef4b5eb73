import { useEffect } from 'react';
import { Polygon, Polyline, useMap } from 'react-leaflet';
import { BaseMap } from '../../../web/map/base/BaseMap';
import { geometryBounds, type Geometry } from '../../../web/handbooks/inputs/wktGeometry';
import { SHAPE_STYLE } from '../../../web/handbooks/inputs/inputMaps';

/** Keeps the shape in view as it changes (edited on the map or as text). */
function FitShape({ geometry }: { geometry: Geometry }) {
  const map = useMap();
  useEffect(() => {
    const bounds = geometryBounds(geometry);
    if (bounds) map.fitBounds(bounds, { padding: [12, 12], maxZoom: 16, animate: false });
  }, [map, geometry]);
  return null;
}

/** The shape drawn on the parts of a geometry (each polygon with its holes, each line). */
function GeometryShapes({ geometry }: { geometry: Geometry }) {
  return geometry.kind === 'polygon' ? (
    <>
      {geometry.polygons.map((rings, i) => (
        <Polygon key={i} positions={rings} pathOptions={SHAPE_STYLE} />
      ))}
    </>
  ) : (
    <>
      {geometry.lines.map((line, i) => (
        <Polyline key={i} positions={line} pathOptions={SHAPE_STYLE} />
      ))}
    </>
  );
}

/** A small map showing a polygon or line, not interactive: the form's preview of a geometry column. */
export default function GeometryPreviewMap({ geometry }: { geometry: Geometry }) {
  return (
    <BaseMap still>
      <FitShape geometry={geometry} />
      <GeometryShapes geometry={geometry} />
    </BaseMap>
  );
}
