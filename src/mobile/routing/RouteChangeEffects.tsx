import { useLayoutEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { leavePage } from './pageRequests';

/**
 * On every route change (a new path; the query, e.g. navState, does not count): the pending requests of the
 * page left are cancelled and fullscreen is left. The error state is cleared by the error boundaries, which
 * reset on the same path. A layout effect, so the abort comes before the new page's effects send requests.
 */
export function RouteChangeEffects(): null {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  useLayoutEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    leavePage();
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
  }, [pathname]);
  return null;
}
