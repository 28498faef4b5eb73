import type { ModuleId, Switches } from '../shared/modules';
import { isEnabled } from '../shared/modules';
import { canAccess, type AccessSubject } from '../shared/permissions';
import { cleanPath } from '../shared/paths';

/**
 * Who may open what in the field application (field-app spec 2.1, 2.2 and 6), as pure functions of the
 * current user's permissions and module switches. The main menu, the landing page after login, the route
 * guard and the tests all read these tables.
 */

export type MobileSectionId = 'map' | 'video' | 'bc' | 'handbooks';

export interface MobileSection {
  id: MobileSectionId;
  /** The section's home in the field app (also its menu link). */
  path: string;
  /** i18n key of the menu entry. */
  label: string;
  /** The module switch that must be on (user.settings.modules). */
  module: ModuleId;
  /** Permission keys of the shared code (src/shared/permissions.ts): reading any one of them opens the section. */
  rights: readonly string[];
}

/** The sections in menu and landing order: map, video, ticket control, handbooks. */
export const MOBILE_SECTIONS: readonly MobileSection[] = [
  { id: 'map', path: '/map', label: 'mobile.menu.map', module: 'map', rights: ['/map/currentData'] },
  { id: 'video', path: '/video', label: 'mobile.menu.video', module: 'video', rights: ['/video/online'] },
  { id: 'bc', path: '/bc', label: 'mobile.menu.bc', module: 'bc', rights: ['/bc/controllertask', '/bc/departmentcontroll'] },
  // '/handbooks' reads the union of every handbook key: any readable handbook opens the section
  { id: 'handbooks', path: '/handbooks', label: 'mobile.menu.handbooks', module: 'handbooks', rights: ['/handbooks'] },
];

/** The paths of the route table (field-app spec 2.1); ':name' matches one segment. */
export type MobileRoutePattern =
  | '/map'
  | '/video'
  | '/video/:vehicle'
  | '/bc'
  | '/bc/departmentcontroll'
  | '/bc/controllertask'
  | '/bc/currentregion'
  | '/bc/result'
  | '/handbooks'
  | '/handbooks/:type'
  | '/handbooks/:type/:id';

export interface MobileRoute {
  pattern: MobileRoutePattern;
  section: MobileSectionId;
  /** i18n key of the page title. */
  title: string;
  /**
   * Besides the section, one of these keys must be readable; ':name' takes the URL's segment (a handbook's
   * type reads that handbook's key).
   */
  rights?: readonly string[];
}

/** The section routes of the route table (field-app spec 2.1). */
export const MOBILE_ROUTES: readonly MobileRoute[] = [
  { pattern: '/map', section: 'map', title: 'mobile.menu.map' },
  { pattern: '/video', section: 'video', title: 'mobile.titles.video' },
  { pattern: '/video/:vehicle', section: 'video', title: 'mobile.titles.videoVehicle' },
  { pattern: '/bc', section: 'bc', title: 'mobile.titles.bc' },
  { pattern: '/bc/departmentcontroll', section: 'bc', title: 'mobile.titles.departmentcontroll', rights: ['/bc/departmentcontroll'] },
  { pattern: '/bc/controllertask', section: 'bc', title: 'mobile.titles.controllertask', rights: ['/bc/controllertask'] },
  { pattern: '/bc/currentregion', section: 'bc', title: 'mobile.titles.currentregion', rights: ['/bc/controllertask'] },
  { pattern: '/bc/result', section: 'bc', title: 'mobile.titles.result', rights: ['/bc/controllertask'] },
  { pattern: '/handbooks', section: 'handbooks', title: 'mobile.titles.handbooks' },
  { pattern: '/handbooks/:type', section: 'handbooks', title: 'mobile.titles.handbook', rights: ['/handbooks/table/:type'] },
  { pattern: '/handbooks/:type/:id', section: 'handbooks', title: 'mobile.titles.handbookRecord', rights: ['/handbooks/table/:type'] },
];

/** The about page: always available (field-app spec 6). */
export const ABOUT_PATH = '/about';

/** The error pages of field-app spec 2.7; open to anyone logged in. */
export const SERVICE_PATHS = ['/access-denied', '/server-error', '/client-error', '/no-connection', '/not-found'] as const;

/** Paths that need no permission. */
export const ALWAYS_AVAILABLE: readonly string[] = [ABOUT_PATH, ...SERVICE_PATHS];

export interface RouteMatch {
  route: MobileRoute;
  params: Record<string, string>;
}

function matchPattern(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const have = path.split('/').filter(Boolean);
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i].startsWith(':')) {
      try {
        params[want[i].slice(1)] = decodeURIComponent(have[i]);
      } catch {
        params[want[i].slice(1)] = have[i];
      }
    } else if (want[i] !== have[i]) {
      return null;
    }
  }
  return params;
}

/** The section route a URL belongs to, with its parameters; undefined for anything else. */
export function matchMobileRoute(path: string): RouteMatch | undefined {
  const clean = cleanPath(path);
  for (const route of MOBILE_ROUTES) {
    const params = matchPattern(route.pattern, clean);
    if (params) return { route, params };
  }
  return undefined;
}

export function sectionById(id: MobileSectionId): MobileSection {
  return MOBILE_SECTIONS.find((section) => section.id === id)!;
}

/** The section's module is on and one of its rights is readable. */
export function sectionAllowed(subject: AccessSubject | null | undefined, switches: Switches, section: MobileSection): boolean {
  return isEnabled(switches, section.module) && section.rights.some((key) => canAccess(subject, key, 'read'));
}

/** The sections of the main menu, in order (about is always listed after them). */
export function permittedSections(subject: AccessSubject | null | undefined, switches: Switches): MobileSection[] {
  return MOBILE_SECTIONS.filter((section) => sectionAllowed(subject, switches, section));
}

/** Where / leads a logged-in user: the first permitted section (map, video, ticket control, handbooks), else /about. */
export function mobileLanding(subject: AccessSubject | null | undefined, switches: Switches): string {
  return permittedSections(subject, switches)[0]?.path ?? ABOUT_PATH;
}

const fill = (key: string, params: Record<string, string>) => key.replace(/:(\w+)/g, (match, name: string) => params[name] ?? match);

export type MobileVerdict = 'allowed' | 'access-denied' | 'not-found';

/**
 * May the subject open this URL of the field app? / and the always-available pages: yes. A path outside the
 * route table: not found. A section whose module is switched off: not found (as in the console). A section
 * or route whose right the subject lacks: access denied.
 */
export function mobileRouteVerdict(subject: AccessSubject | null | undefined, switches: Switches, path: string): MobileVerdict {
  const clean = cleanPath(path);
  if (clean === '/' || ALWAYS_AVAILABLE.includes(clean)) return 'allowed';
  const match = matchMobileRoute(clean);
  if (!match) return 'not-found';
  const section = sectionById(match.route.section);
  if (!isEnabled(switches, section.module)) return 'not-found';
  if (!sectionAllowed(subject, switches, section)) return 'access-denied';
  const rights = match.route.rights;
  if (rights && !rights.some((key) => canAccess(subject, fill(key, match.params), 'read'))) return 'access-denied';
  return 'allowed';
}

/**
 * Where the login form leads: the address the visitor opened (the login screen replaced it) when it is a
 * section route or the about page, otherwise the landing page.
 */
export function loginTarget(subject: AccessSubject, switches: Switches, requested: string): string {
  const clean = cleanPath(requested);
  if (clean === ABOUT_PATH || matchMobileRoute(clean)) return requested;
  return mobileLanding(subject, switches);
}
