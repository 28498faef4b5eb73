/** Business constants of spec/console.md section 9 and spec/field-app.md section 9. */
export const HANDBOOK_PAGE_SIZE = 100;
export const SHARED_PAGE_SIZE = 30;
export const MESSAGE_DISPLAY_MS = 4000;
export const SUGGESTIONS_MAX = 50;
export const SUGGESTION_TEXT_MAX = 75;
/** A list filter's or search's text: the field's own maxLength where it has one, else this many characters. */
export const FILTER_TEXT_MAX = 200;
/** Values one list filter may name (a checklist of exits, routes…). */
export const FILTER_VALUES_MAX = 1000;
export const DEFAULT_MAP = { lat: 59.95355, lon: 30.30991, zoom: 11 } as const;
export const DEFAULT_MAP_LAYERS = ['routes', 'stops', 'vehicles', 'depots', 'depotPoints'] as const;
export const COORDINATE_DECIMALS = 5;
export const DEFAULT_COLOR = '#000000';
export const PRIMARY_COLOR = '#003a72';
export const LAYOUT = { header: 48, sidebar: 255, topPanel: 42 } as const;
export const FILTER_MODAL = { width: 320, listMaxHeight: 315 } as const;
/** Vehicle class colours by rank 1..4: amber, orange, dark red, dark grey. */
export const VEHICLE_CLASS_COLORS = ['#ffbf00', '#ff8c00', '#8b0000', '#424242'] as const;
export const VEHICLE_CLASSES = [
  { code: 'МК', rank: 1, title: 'малый' },
  { code: 'СК', rank: 2, title: 'средний' },
  { code: 'БК', rank: 3, title: 'большой' },
  { code: 'ОБК', rank: 4, title: 'особо большой' },
] as const;
export const MANUALS = [
  { id: 'administrator', version: '1.26', enabled: true },
  { id: 'operator', version: '1.26', enabled: true },
  { id: 'controller', version: '1.8.4', enabled: false },
] as const;
/** Notification polling: the spec leaves the interval open; 30 s keeps a thousand consoles cheap. */
export const NOTIFICATION_POLL_MS = 30_000;
/** Header names carried by every API request (DESIGN.md, API). */
export const HEADERS = {
  token: 'authorization',
  refreshedToken: 'x-auth-token',
  timezoneOffset: 'x-timezone-offset',
  pageId: 'x-page-id',
} as const;
export const TOKEN_STORAGE_KEY = 'token';
/** Users whose id equals this are superusers (spec section 6: an identifier check). */
export const SUPERUSER_ID = 1;
