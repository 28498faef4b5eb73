import { describe, expect, it } from 'vitest';
import { cleanPath } from '../../src/shared/paths';
import {
  ALWAYS_AVAILABLE,
  MOBILE_ROUTES,
  MOBILE_SECTIONS,
  loginTarget,
  matchMobileRoute,
  mobileLanding,
  mobileRouteVerdict,
  permittedSections,
} from '../../src/mobile/access';
import { pathWithMenu, withNavState } from '../../src/mobile/routing/useMainMenu';
import { defaultSwitches, type Switches } from '../../src/shared/modules';
import { CREATE, READ, UPDATE, type PermissionMap } from '../../src/shared/permissions';

const subject = (permissions: PermissionMap, id = 50) => ({ id, permissions });
const defaults = defaultSwitches(); // bc is off by default
const withBc: Switches = { ...defaults, modules: { ...defaults.modules, bc: true } };

const viewer = subject({ '/map/currentData': READ, '/video/online': READ, '/handbooks/table': READ });
const controller = subject({
  '/map/currentData': READ,
  '/bc/controllertask': READ | UPDATE,
  '/bc/departmentcontroll': READ,
  '/handbooks/table': READ,
});
const nobody = subject({});
const admin = subject({}, 1); // the superuser holds every right

describe('field app: the landing page after login', () => {
  it('is the first permitted section in the order map, video, ticket control, handbooks', () => {
    expect(mobileLanding(viewer, defaults)).toBe('/map');
    expect(mobileLanding(subject({ '/video/online': READ, '/handbooks/table': READ }), defaults)).toBe('/video');
    expect(mobileLanding(subject({ '/bc/departmentcontroll': READ, '/handbooks/table': READ }), withBc)).toBe('/bc');
    expect(mobileLanding(subject({ '/handbooks/table/stops': READ }), defaults)).toBe('/handbooks');
    expect(mobileLanding(admin, defaults)).toBe('/map');
  });

  it('is /about when no section is permitted', () => {
    expect(mobileLanding(nobody, defaults)).toBe('/about');
    expect(mobileLanding(null, defaults)).toBe('/about');
  });

  it('reads the map on its current-data right only', () => {
    expect(mobileLanding(subject({ '/map/previousData': READ, '/video/online': READ }), defaults)).toBe('/video');
  });

  it('needs the read bit: create or update alone opens nothing', () => {
    expect(mobileLanding(subject({ '/map/currentData': CREATE | UPDATE }), defaults)).toBe('/about');
  });

  it('skips ticket control while the bc module is off, and a section whose module is off', () => {
    const bcOnly = subject({ '/bc/controllertask': READ });
    expect(mobileLanding(bcOnly, defaults)).toBe('/about');
    expect(mobileLanding(bcOnly, withBc)).toBe('/bc');
    const noMap: Switches = { ...defaults, modules: { ...defaults.modules, map: false } };
    expect(mobileLanding(viewer, noMap)).toBe('/video');
  });
});

describe('field app: the main menu sections', () => {
  it('lists exactly the permitted sections, in menu order', () => {
    const ids = (s: Parameters<typeof permittedSections>[0], sw: Switches) => permittedSections(s, sw).map((section) => section.id);
    expect(ids(viewer, defaults)).toEqual(['map', 'video', 'handbooks']);
    expect(ids(controller, defaults)).toEqual(['map', 'handbooks']);
    expect(ids(controller, withBc)).toEqual(['map', 'bc', 'handbooks']);
    expect(ids(admin, withBc)).toEqual(['map', 'video', 'bc', 'handbooks']);
    expect(ids(nobody, withBc)).toEqual([]);
  });

  it('has a translated label and a route for every section', () => {
    for (const section of MOBILE_SECTIONS) {
      expect(section.label).toMatch(/^mobile\.menu\./);
      expect(MOBILE_ROUTES.some((route) => route.pattern === section.path)).toBe(true);
    }
  });
});

describe('field app: the route permission map', () => {
  it('allows /, about and the error pages to anyone', () => {
    for (const path of ['/', ...ALWAYS_AVAILABLE]) expect(mobileRouteVerdict(nobody, defaults, path)).toBe('allowed');
  });

  it('sends an unknown path to not-found', () => {
    for (const path of ['/nowhere', '/map/extra', '/bc/unknown', '/handbooks/stops/1/2', '/login']) {
      expect(mobileRouteVerdict(admin, withBc, path), path).toBe('not-found');
    }
  });

  it('sends a section route without its right to access-denied', () => {
    expect(mobileRouteVerdict(controller, defaults, '/video')).toBe('access-denied');
    expect(mobileRouteVerdict(controller, defaults, '/video/17')).toBe('access-denied');
    expect(mobileRouteVerdict(viewer, defaults, '/video/17')).toBe('allowed');
    expect(mobileRouteVerdict(nobody, defaults, '/map')).toBe('access-denied');
    expect(mobileRouteVerdict(nobody, defaults, '/handbooks')).toBe('access-denied');
  });

  it('checks each ticket-control route on its own right, with the module on', () => {
    const department = subject({ '/bc/departmentcontroll': READ });
    expect(mobileRouteVerdict(department, withBc, '/bc')).toBe('allowed');
    expect(mobileRouteVerdict(department, withBc, '/bc/departmentcontroll')).toBe('allowed');
    for (const path of ['/bc/controllertask', '/bc/currentregion', '/bc/result']) {
      expect(mobileRouteVerdict(department, withBc, path), path).toBe('access-denied');
      expect(mobileRouteVerdict(controller, withBc, path), path).toBe('allowed');
    }
    expect(mobileRouteVerdict(controller, defaults, '/bc')).toBe('not-found');
  });

  it('reads a handbook URL on that handbook', () => {
    const stops = subject({ '/handbooks/table/stops': READ });
    expect(mobileRouteVerdict(stops, defaults, '/handbooks')).toBe('allowed');
    expect(mobileRouteVerdict(stops, defaults, '/handbooks/stops')).toBe('allowed');
    expect(mobileRouteVerdict(stops, defaults, '/handbooks/stops/12')).toBe('allowed');
    expect(mobileRouteVerdict(stops, defaults, '/handbooks/routes')).toBe('access-denied');
    expect(mobileRouteVerdict(viewer, defaults, '/handbooks/routes/3')).toBe('allowed');
  });

  it('ignores the query, the hash and a trailing slash', () => {
    expect(mobileRouteVerdict(viewer, defaults, '/map/?navState=open')).toBe('allowed');
    expect(cleanPath('')).toBe('/');
    expect(cleanPath('/video/12/#x')).toBe('/video/12');
    expect(matchMobileRoute('/video/A%20B')?.params).toEqual({ vehicle: 'A B' });
  });
});

describe('field app: after login', () => {
  it('goes on to the section or about page the login screen replaced', () => {
    expect(loginTarget(viewer, defaults, '/video/12')).toBe('/video/12');
    expect(loginTarget(viewer, defaults, '/about')).toBe('/about');
    expect(loginTarget(controller, defaults, '/handbooks/stops?page=2')).toBe('/handbooks/stops?page=2');
  });

  it('lands on the landing page from /, an error page or an unknown path', () => {
    for (const path of ['/', '/not-found', '/access-denied', '/no-connection', '/whatever']) {
      expect(loginTarget(controller, defaults, path), path).toBe('/map');
    }
  });
});

describe('field app: the menu in the address', () => {
  it('adds and removes navState=open, keeping other parameters', () => {
    expect(withNavState('', true)).toBe('?navState=open');
    expect(withNavState('?a=1', true)).toBe('?a=1&navState=open');
    expect(withNavState('?a=1&navState=open', false)).toBe('?a=1');
    expect(withNavState('?navState=open', false)).toBe('');
    expect(pathWithMenu('/')).toBe('/?navState=open');
  });
});
