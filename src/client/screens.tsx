import type { ComponentType, LazyExoticComponent } from 'react';

export type Screen = LazyExoticComponent<ComponentType>;

/**
 * The screens of the console by route path (CONSOLE_ROUTES.path), each lazy-loaded so that the login page
 * and the shell stay small. A screen is reachable once its route is marked `built` in src/shared/routes.ts
 * and it is registered here; it is mounted at `<path>/*`, so nested URLs (/handbooks/table/:handbookType,
 * /bc/result/:task, /video/online/live/...) reach it too. The route guard sends a user whose module or
 * section is off to /not-found and one without the permission to /access-denied. For example:
 *
 *   '/map': lazy(() => import('./map/MapScreen')),
 */
export const SCREENS: Readonly<Partial<Record<string, Screen>>> = {};
