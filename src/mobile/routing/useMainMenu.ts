import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { NAV_STATE_OPEN, NAV_STATE_PARAM } from '../constants';

interface MenuState {
  /** Set on the history entry the menu button pushed, so that closing goes back instead of adding an entry. */
  menuPushed?: boolean;
}

/** A search string with navState=open added (open) or removed. */
export function withNavState(search: string, open: boolean): string {
  const params = new URLSearchParams(search);
  if (open) params.set(NAV_STATE_PARAM, NAV_STATE_OPEN);
  else params.delete(NAV_STATE_PARAM);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** A path that opens the main menu on arrival: '/' becomes '/?navState=open'. */
export function pathWithMenu(path: string): string {
  return `${path}${withNavState('', true)}`;
}

/**
 * The main menu is driven by the URL (field-app spec 2.1: navState=open). Opening pushes a history entry,
 * so the phone's back button closes it; closing returns from that entry, or drops the parameter when the
 * menu came open with the address itself.
 */
export function useMainMenu() {
  const location = useLocation();
  const navigate = useNavigate();
  const open = new URLSearchParams(location.search).get(NAV_STATE_PARAM) === NAV_STATE_OPEN;
  const pushed = (location.state as MenuState | null)?.menuPushed === true;

  const openMenu = useCallback(() => {
    void navigate(
      { pathname: location.pathname, search: withNavState(location.search, true) },
      { state: { menuPushed: true } satisfies MenuState },
    );
  }, [navigate, location.pathname, location.search]);

  const closeMenu = useCallback(() => {
    if (pushed) void navigate(-1);
    else void navigate({ pathname: location.pathname, search: withNavState(location.search, false) }, { replace: true });
  }, [navigate, pushed, location.pathname, location.search]);

  return { open, openMenu, closeMenu };
}
