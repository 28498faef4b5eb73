import { useMemo } from 'react';
import { HANDBOOKS, HANDBOOK_TYPES, handbookPermissionPath } from '../../../schemas/index';
import type { HandbookSchema } from '../../shared/handbooks/types';
import { mayAccess } from '../../shared/routeAccess';
import { useCurrentUser, useSwitches } from '../../web/stores/sessionStore';

/** The handbooks the user may open: section switched on and the read right (spec sections 2 and 6). */
export function useReadableHandbooks(): HandbookSchema[] {
  const user = useCurrentUser();
  const switches = useSwitches();
  return useMemo(
    () => HANDBOOK_TYPES.filter((type) => mayAccess(user, switches, handbookPermissionPath(type), 'read')).map((type) => HANDBOOKS[type]),
    [user, switches],
  );
}
