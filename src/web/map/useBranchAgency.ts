import { useEffect, useState } from 'react';
import type { BranchAgency } from '../../shared/map';
import { mapApi } from './mapApi';
import { useMapState } from './mapState';

let cached: Promise<BranchAgency> | null = null;

/** GET /api/v1/map/branchagency once per page (enterprises, branches and departments barely change). */
export function loadBranchAgency(): Promise<BranchAgency> {
  cached ??= mapApi.branchAgency({ quiet: true }).catch((error: unknown) => {
    cached = null;
    throw error;
  });
  return cached;
}

export function useBranchAgency(enabled: boolean): BranchAgency | null {
  const { layerErrors } = useMapState();
  const [data, setData] = useState<BranchAgency | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    loadBranchAgency().then(
      (value) => {
        if (live) setData(value);
        layerErrors.set((e) => ({ ...e, depots: false }));
      },
      () => live && layerErrors.set((e) => ({ ...e, depots: true })),
    );
    return () => {
      live = false;
    };
  }, [enabled, layerErrors]);
  return enabled ? data : null;
}
