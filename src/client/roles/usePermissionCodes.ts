import { useEffect, useState } from 'react';
import type { ListResponse } from '../../shared/api';
import type { PermissionCode } from '../../shared/permissionCodes';
import { getJson, isAbortError } from '../../web/providers/httpClient';
import { ROLES_API } from '../../web/providers/resources/roles';

/** GET /api/v1/roles/codes: the named permission codes 1..43 with their meaning and grants. */
export function usePermissionCodes(): { codes: PermissionCode[]; loading: boolean } {
  const [codes, setCodes] = useState<PermissionCode[]>([]);
  const [loading, setLoading] = useState(true);
  useEffect(() => {
    const controller = new AbortController();
    getJson<ListResponse<PermissionCode>>(`${ROLES_API}/codes`, { signal: controller.signal })
      .then(({ list }) => setCodes(list))
      .catch((error: unknown) => {
        if (!isAbortError(error)) setCodes([]);
      })
      .finally(() => !controller.signal.aborted && setLoading(false));
    return () => controller.abort();
  }, []);
  return { codes, loading };
}
