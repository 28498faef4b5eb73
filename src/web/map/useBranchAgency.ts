import { useEffect } from 'react';
import type { BranchAgency } from '../../shared/map';
import { webQueries, useApiQuery } from '../providers/queries';
import { mapApi } from './mapApi';
import { useMapState } from './mapState';

/** Enterprises, branches and departments barely change: asked once per session. */
const QUERY = { queryKey: ['map', 'branchagency'], queryFn: () => mapApi.branchAgency({ quiet: true }), staleTime: Infinity } as const;

/** GET /api/v1/map/branchagency, shared with the layer (a search result's depot is placed from it). */
export function loadBranchAgency(): Promise<BranchAgency> {
  return webQueries.fetchQuery(QUERY);
}

export function useBranchAgency(enabled: boolean): BranchAgency | null {
  const { layerErrors } = useMapState();
  const { data, isError } = useApiQuery(QUERY.queryKey, (signal) => mapApi.branchAgency({ signal, quiet: true }), {
    enabled,
    staleTime: Infinity,
  });
  // the layer's error flag on the map's layers control
  useEffect(() => {
    if (enabled && (data || isError)) layerErrors.set((e) => ({ ...e, depots: isError }));
  }, [enabled, data, isError, layerErrors]);
  return enabled ? (data ?? null) : null;
}
