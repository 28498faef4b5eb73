import type { LineField, PolygonField } from '../../../shared/handbooks/types';

/** A WKT polygon or line column edited on a map with leaflet-geoman (work in progress). */
export function HandbookGeometryInput({ field }: { field: PolygonField | LineField }) {
  return <div data-field={field.name}>{field.label}</div>;
}
