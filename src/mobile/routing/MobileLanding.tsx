import { Navigate, useLocation } from 'react-router';
import { useCurrentUser, useSwitches } from '../../web/stores/sessionStore';
import { mobileLanding } from '../access';

/**
 * / for a logged-in user: the first permitted section, else /about (field-app spec 2.1). The query goes along,
 * so '/?navState=open' lands with the menu open. Without a current user (its load failed) the app cannot
 * decide anything: the no-connection page offers to load it again.
 */
export function MobileLanding() {
  const user = useCurrentUser();
  const switches = useSwitches();
  const { search } = useLocation();
  const target = user ? mobileLanding(user, switches) : '/no-connection';
  return <Navigate to={{ pathname: target, search }} replace />;
}

/** Any address outside the route table. */
export function NotFoundRedirect() {
  return <Navigate to="/not-found" replace />;
}
