import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { MobileRoutePattern } from './access';
import { loadFieldMap, preloadFieldMap } from './map/loadFieldMap';

export type MobileScreen = LazyExoticComponent<ComponentType> | ComponentType;

// the map (field-app spec 2.3), fetched while the session starts, not after it
if (typeof window !== 'undefined') preloadFieldMap();

/**
 * The screen of each route of the field app's route table (MOBILE_ROUTES in access.ts: a route without one is a
 * type error), lazy-loaded so that the login page and the shell stay small.
 */
export const MOBILE_SCREENS: Readonly<Record<MobileRoutePattern, MobileScreen>> = {
  '/map': lazy(loadFieldMap),
  // ticket control (field-app spec 2.1, 2.5)
  '/bc': lazy(() => import('./bc/BcHomeScreen')),
  '/bc/departmentcontroll': lazy(() => import('./bc/BcMapScreen').then((m) => ({ default: m.DepartmentControlMap }))),
  '/bc/controllertask': lazy(() => import('./bc/WorkOrderScreen')),
  '/bc/currentregion': lazy(() => import('./bc/BcMapScreen').then((m) => ({ default: m.CurrentRegionMap }))),
  '/bc/result': lazy(() => import('./bc/ControllerReportScreen')),
  // video (field-app spec 2.4)
  '/video': lazy(() => import('./video/VideoSearchScreen')),
  '/video/:vehicle': lazy(() => import('./video/VehicleVideoScreen')),
  // read-only handbooks (field-app spec 2.6)
  '/handbooks': lazy(() => import('./handbooks/HandbookIndexScreen')),
  '/handbooks/:type': lazy(() => import('./handbooks/HandbookListScreen')),
  '/handbooks/:type/:id': lazy(() => import('./handbooks/HandbookRecordScreen')),
};
