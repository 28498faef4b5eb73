import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { routeVerdict } from '../../shared/routeAccess';
import { useCurrentUser, useSwitches } from '../../web/stores/sessionStore';

/** Lets a screen show only when its route is switched on (else /not-found) and permitted (else /access-denied). */
export function RouteGuard({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const user = useCurrentUser();
  const switches = useSwitches();
  const verdict = routeVerdict(user, switches, pathname);
  if (verdict === 'not-found') return <Navigate to="/not-found" replace />;
  if (verdict === 'access-denied') return <Navigate to="/access-denied" replace />;
  return <>{children}</>;
}
