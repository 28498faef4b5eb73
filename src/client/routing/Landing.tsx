import { Navigate } from 'react-router';
import { landingPath } from '../../shared/permissions';
import { useCurrentUser, useSwitches } from '../../web/stores/sessionStore';

/** / for a logged-in user: the landing page of spec section 2 (the first readable screen, else /not-found). */
export function Landing() {
  const user = useCurrentUser();
  const switches = useSwitches();
  return <Navigate to={landingPath(user, switches)} replace />;
}

/** Any unknown address inside the console. */
export function NotFoundRedirect() {
  return <Navigate to="/not-found" replace />;
}
