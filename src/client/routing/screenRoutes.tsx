import type { ReactElement } from 'react';
import { Route } from 'react-router';
import { CONSOLE_ROUTES } from '../../shared/routes';
import { SCREENS } from '../screens';
import { RouteGuard } from './RouteGuard';

/** <Route>s for every built route with a registered screen, each behind the route guard. */
export function screenRoutes(): ReactElement[] {
  return CONSOLE_ROUTES.flatMap((route) => {
    const Screen = SCREENS[route.path];
    if (!route.built || !Screen) return [];
    return [
      <Route
        key={route.path}
        path={`${route.path}/*`}
        element={
          <RouteGuard>
            <Screen />
          </RouteGuard>
        }
      />,
    ];
  });
}

/** Built routes no registered screen covers (neither its own nor an enclosing route's): a mistake. */
export function unregisteredRoutes(): string[] {
  const registered = Object.keys(SCREENS);
  return CONSOLE_ROUTES.filter(
    (route) => route.built && !registered.some((path) => route.path === path || route.path.startsWith(`${path}/`)),
  ).map((route) => route.path);
}
