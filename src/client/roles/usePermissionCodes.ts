import type { ListResponse } from '../../shared/api';
import type { PermissionCode } from '../../shared/permissionCodes';
import { getJson } from '../../web/providers/httpClient';
import { useApiQuery } from '../../web/providers/queries';
import { ROLES_API } from '../../web/providers/resources/roles';

/** GET /api/v1/roles/codes: the named permission codes 1..43 with their meaning and grants. */
export function usePermissionCodes(): { codes: PermissionCode[]; loading: boolean } {
  const query = useApiQuery(['roles', 'codes'], (signal) => getJson<ListResponse<PermissionCode>>(`${ROLES_API}/codes`, { signal }), {
    staleTime: Infinity,
  });
  return { codes: query.data?.list ?? [], loading: query.isLoading };
}
