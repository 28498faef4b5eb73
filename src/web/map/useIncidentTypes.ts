import { useEffect, useState } from 'react';
import type { IncidentType } from '../../shared/map';
import { mapApi } from './mapApi';

let cached: Promise<IncidentType[]> | null = null;

/** GET /api/v1/map/incident-types once per page: colours and names of the incident layer. */
export function useIncidentTypes(enabled: boolean): IncidentType[] {
  const [types, setTypes] = useState<IncidentType[]>([]);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    cached ??= mapApi.incidentTypes({ quiet: true }).catch(() => {
      cached = null;
      return [];
    });
    void cached.then((value) => live && setTypes(value));
    return () => {
      live = false;
    };
  }, [enabled]);
  return types;
}

export function incidentTypeName(types: readonly IncidentType[], type: number): string {
  return types.find((t) => t.incidentType === type)?.name ?? `ISPV event ${type}`;
}

export function incidentColour(types: readonly IncidentType[], type: number): string {
  const colour = types.find((t) => t.incidentType === type)?.colour;
  return colour && /^#?[0-9a-f]{3,8}$/i.test(colour) ? (colour.startsWith('#') ? colour : `#${colour}`) : '#d32f2f';
}
