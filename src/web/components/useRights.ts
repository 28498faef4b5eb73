import { useMemo } from 'react';
import type { Action } from '../../shared/permissions';
import { mayAccess } from '../../shared/routeAccess';
import { useCurrentUser, useSwitches } from '../stores/sessionStore';

export type Rights = Readonly<Record<Action, boolean>>;

/**
 * What the current user may do on a console path (spec section 6): the same decision as react-admin's
 * canAccess and the server, read synchronously from the session so buttons never flicker.
 */
export function useRights(path: string): Rights {
  const user = useCurrentUser();
  const switches = useSwitches();
  return useMemo(
    () => ({
      create: mayAccess(user, switches, path, 'create'),
      read: mayAccess(user, switches, path, 'read'),
      update: mayAccess(user, switches, path, 'update'),
      delete: mayAccess(user, switches, path, 'delete'),
    }),
    [user, switches, path],
  );
}
