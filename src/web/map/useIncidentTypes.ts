import type { IncidentType } from '../../shared/map';
import { useApiQuery } from '../providers/queries';
import { mapApi } from './mapApi';

const NONE: IncidentType[] = [];

/** GET /api/v1/map/incident-types once per session: colours and names of the incident layer. */
export function useIncidentTypes(enabled: boolean): IncidentType[] {
  const { data } = useApiQuery(['map', 'incident-types'], (signal) => mapApi.incidentTypes({ signal, quiet: true }), {
    enabled,
    staleTime: Infinity,
  });
  return data ?? NONE;
}

export function incidentTypeName(types: readonly IncidentType[], type: number): string {
  return types.find((t) => t.incidentType === type)?.name ?? `ISPV event ${type}`;
}

export function incidentColour(types: readonly IncidentType[], type: number): string {
  const colour = types.find((t) => t.incidentType === type)?.colour;
  return colour && /^#?[0-9a-f]{3,8}$/i.test(colour) ? (colour.startsWith('#') ? colour : `#${colour}`) : '#d32f2f';
}
