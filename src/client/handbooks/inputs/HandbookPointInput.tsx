import type { PointField } from '../../../shared/handbooks/types';

/** A lat/lon pair of two columns edited as one "lat, lon" text input with a map picker (work in progress). */
export function HandbookPointInput({ field }: { field: PointField }) {
  return <div data-field={field.name}>{field.label}</div>;
}
