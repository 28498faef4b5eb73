import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useCurrentUser, useSwitches } from '../../web/stores/sessionStore';
import { mobileRouteVerdict } from '../access';

/**
 * A section page shows only when permitted (else /access-denied) and its module is on (else /not-found);
 * without a current user (its load failed) the no-connection page offers to load it again.
 */
export function MobileRouteGuard({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const user = useCurrentUser();
  const switches = useSwitches();
  if (!user) return <Navigate to="/no-connection" replace />;
  const verdict = mobileRouteVerdict(user, switches, pathname);
  if (verdict === 'not-found') return <Navigate to="/not-found" replace />;
  if (verdict === 'access-denied') return <Navigate to="/access-denied" replace />;
  return <>{children}</>;
}
