import type { VehicleCheck } from './report';

/**
 * Work orders (controller tasks) of ticket control (console spec section 3, SCREENS.md "Ticket control"): the
 * shapes both sides read, the statuses and their transitions, and the API paths.
 */

/** new → in work → closed; not achieved once the date has passed unclosed. */
export const TASK_STATUSES = ['new', 'in_work', 'closed', 'not_achieved'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** Statuses a client may set (not achieved is the server's, when the date has passed). */
export const SETTABLE_STATUSES = ['new', 'in_work', 'closed'] as const;
export type SettableStatus = (typeof SETTABLE_STATUSES)[number];

/** Colours of the statuses on the calendar and in lists. */
export const STATUS_COLORS: Record<TaskStatus, string> = {
  new: '#1e88e5',
  in_work: '#fb8c00',
  closed: '#43a047',
  not_achieved: '#e53935',
};

/**
 * May a task go from `from` to `to`? Forward only: new → in work → closed (new → closed too: completing the
 * report starts it). Setting the status it has is accepted (a retried call). Nothing leaves closed or not
 * achieved but a desktop reopening a closed task (back to in work).
 */
export function transitionAllowed(from: TaskStatus, to: SettableStatus, reopen = false): boolean {
  if (from === to) return true;
  if (from === 'new') return to === 'in_work' || to === 'closed';
  if (from === 'in_work') return to === 'closed';
  if (from === 'closed') return reopen && to === 'in_work';
  return false;
}

/** Route types of an order: 0 main, 1 incidental (field-app spec 2.5). */
export const ROUTE_TYPES = [0, 1] as const;
export type TaskRouteType = (typeof ROUTE_TYPES)[number];

export interface TaskWorker {
  id: number;
  fio: string;
}

export interface TaskRoute {
  route_id: number;
  short_name: string;
  type: TaskRouteType;
}

/** A work order as GET controllertask/worker and the desktop read it (field-app spec 3, "Work order"). */
export interface ControllerTask {
  id: number;
  number: string;
  date: string;
  graphic_type_id: number;
  graphic_type: string;
  /** Minutes of day, shown hh:mm. */
  graphicType_start: number | null;
  graphicType_end: number | null;
  department_id: number;
  department: string;
  control_region_id: number | null;
  control_region: string | null;
  status: TaskStatus;
  note: string | null;
  workers: TaskWorker[];
  routes: TaskRoute[];
}

/** The body of POST /api/v1/bc/tasks and PUT /api/v1/bc/tasks/{id}. */
export interface TaskBody {
  number: string;
  date: string;
  graphic_type_id: number;
  department_id: number;
  control_region_id: number | null;
  worker_ids: number[];
  routes: { route_id: number; type: TaskRouteType }[];
  note?: string | null;
}

export const BC_API = {
  /** Field-app spec section 7. */
  departmentMap: '/api/v1/pass/departmentcontroll/map',
  region: (id: number | string) => `/api/v1/pass/departmentcontroll/${id}`,
  workerTask: '/api/v1/pass/controllertask/worker',
  result: (taskId: number | string) => `/api/v1/pass/controllertask/result/${taskId}`,
  status: '/api/v1/pass/controllertask/status',
  photo: '/api/v1/pass/controllertask/photo',
  photoFile: (photoId: number | string) => `/api/v1/pass/controllertask/photo/${photoId}`,
  /** The desktop's orders. */
  tasks: '/api/v1/bc/tasks',
  task: (id: number | string) => `/api/v1/bc/tasks/${id}`,
  copyDay: '/api/v1/bc/tasks/copy',
  rotation: '/api/v1/bc/rotation',
  options: '/api/v1/bc/options',
} as const;

/** The header a field app's submission carries so that a retry is accepted once. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** A photo's file name: the current timestamp with .jpg (field-app spec section 3). */
export const photoTitle = (now: Date = new Date()): string => `${now.getTime()}.jpg`;

/** Control region on the map (field-app spec 3) with what the details popup shows. */
export interface MapRegion {
  cd_id: number;
  cd_name: string;
  geojson: unknown;
  td_color: string;
  td_id: number | null;
  centre: [number, number] | null;
  routes: { route_id: number }[];
}

export interface RegionDetails {
  cd_id: number;
  cd_name: string;
  td_id: number | null;
  td_name: string | null;
  td_adress: string | null;
  closed_count: number;
  workers_total: number;
  workers_on_task: number;
}

/** A controller's last reported position (api/v1/auth/coord from the field app). */
export interface ControllerPosition {
  user_id: number;
  worker_id: number | null;
  fio: string;
  lat: number;
  lon: number;
  at: string;
  task_id: number | null;
}

export interface DepartmentMap {
  regions: MapRegion[];
  departments: { td_id: number; td_name: string; td_adress: string; td_color: string; lat: number | null; lon: number | null }[];
  /** Today's orders of the departments. */
  tasks: {
    id: number;
    number: string;
    status: TaskStatus;
    department_id: number;
    control_region_id: number | null;
    workers: TaskWorker[];
  }[];
  controllers: ControllerPosition[];
}

/** What GET controllertask/result/{id} answers (field-app spec 3, "Controller task result, as loaded"). */
export interface TaskResultResponse {
  tickets: { id: number; name: string }[];
  files: { id: number; title: string; url: string }[];
  task: {
    id: number;
    department_id: number;
    status: TaskStatus;
    check_tickets: Record<string, number>;
    check_vehicles: VehicleCheck[];
  };
  vehicles: { id: number; depot_number: number; route_id: number | null }[];
  routes: TaskRoute[];
}

/** The pickers of the order form and the calendar (GET options). */
export interface BcOptions {
  departments: { id: number; name: string; color: string }[];
  regions: { id: number; name: string; td_id: number | null }[];
  graphicTypes: { id: number; title: string; short: string; start: number | null; end: number | null }[];
  workers: { id: number; fio: string; td_id: number }[];
  routes: { route_id: number; short_name: string; long_name: string }[];
}

/** A route suggested for an order: least checked lately at the same hours (GET rotation). */
export interface RotationSuggestion {
  route_id: number;
  short_name: string;
  /** Checks of the route in the last 28 days at the same working hours, and on any hours. */
  same_hours: number;
  checks: number;
  last_checked: string | null;
}
