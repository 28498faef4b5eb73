/** The field application is served under /m (src/server/app.ts serves m/index.html for /m and /m/*). */
export const MOBILE_BASE = '/m';

/** The query parameter that opens the main menu (field-app spec 2.1: "navState=open"). */
export const NAV_STATE_PARAM = 'navState';
export const NAV_STATE_OPEN = 'open';
