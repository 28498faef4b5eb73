import type { ReactElement, ReactNode } from 'react';
import { Route } from 'react-router';
import { Title } from 'react-admin';
import { MOBILE_ROUTES, type MobileRoute, type MobileRoutePattern } from '../access';
import MobileAboutPage from '../about/MobileAboutPage';
import { MOBILE_SCREENS } from '../screens';
import AccessDeniedPage from '../service/AccessDeniedPage';
import ClientErrorPage from '../service/ClientErrorPage';
import NoConnectionPage from '../service/NoConnectionPage';
import NotFoundPage from '../service/NotFoundPage';
import ServerErrorPage from '../service/ServerErrorPage';
import { NeedsConnection } from '../offline/NeedsConnection';
import { useOnline } from '../offline/useOnline';
import { MobileRouteGuard } from './MobileRouteGuard';

/** A page with its title in the app bar (react-admin's <Title>, translated by the i18nProvider). */
function Titled({ title, children }: { title: string; children: ReactNode }) {
  return (
    <>
      <Title title={title} />
      {children}
    </>
  );
}

/**
 * Screens of live data (the map, video, ticket control's maps): without a connection they say so plainly
 * instead of failing request by request. Handbooks open their kept copies, the controller report its queue.
 */
const NEEDS_CONNECTION: ReadonlySet<MobileRoutePattern> = new Set<MobileRoutePattern>([
  '/map',
  '/video',
  '/video/:vehicle',
  '/bc/departmentcontroll',
  '/bc/currentregion',
]);

function SectionRoute({ route }: { route: MobileRoute }) {
  const online = useOnline();
  const Screen = MOBILE_SCREENS[route.pattern];
  const page = !online && NEEDS_CONNECTION.has(route.pattern) ? <NeedsConnection /> : <Screen />;
  return (
    <MobileRouteGuard>
      <Titled title={route.title}>{page}</Titled>
    </MobileRouteGuard>
  );
}

/** Every route of field-app spec 2.1 but / (the landing, react-admin's dashboard) and the unknown paths (catchAll). */
export function mobileRoutes(): ReactElement[] {
  return [
    ...MOBILE_ROUTES.map((route) => <Route key={route.pattern} path={route.pattern} element={<SectionRoute route={route} />} />),
    <Route
      key="/about"
      path="/about"
      element={
        <Titled title="mobile.menu.about">
          <MobileAboutPage />
        </Titled>
      }
    />,
    <Route
      key="/access-denied"
      path="/access-denied"
      element={
        <Titled title="mobile.service.accessDenied.title">
          <AccessDeniedPage />
        </Titled>
      }
    />,
    <Route
      key="/server-error"
      path="/server-error"
      element={
        <Titled title="mobile.service.serverError.title">
          <ServerErrorPage />
        </Titled>
      }
    />,
    <Route
      key="/client-error"
      path="/client-error"
      element={
        <Titled title="mobile.service.clientError.title">
          <ClientErrorPage />
        </Titled>
      }
    />,
    <Route
      key="/no-connection"
      path="/no-connection"
      element={
        <Titled title="mobile.service.noConnection.title">
          <NoConnectionPage />
        </Titled>
      }
    />,
    <Route
      key="/not-found"
      path="/not-found"
      element={
        <Titled title="mobile.service.notFound.title">
          <NotFoundPage />
        </Titled>
      }
    />,
  ];
}
