import type { PublicBaseMap } from './baseMap';
import type { DispatchSettings } from './dispatch/settings';
import type { PassengerSettings } from './passengers/passengers';
import type { PermissionMap } from './permissions';

/** Request and response shapes both sides share. */
/** A choice of a filter or a picker: a record's id and its name. */
export interface Option {
  id: number;
  name: string;
}

export interface MapPosition {
  lat: number;
  lon: number;
  zoom: number;
}

/** Ticket control's settings (/system/bc): each takes effect at once. */
export interface BcSettings {
  /** Largest report photo accepted, MB. */
  photoMaxMb: number;
  /** How often the field app posts the controller's position while a task is in work, s. */
  coordIntervalSeconds: number;
  /** Positions older than this are not shown on the department-control map, min. */
  positionMaxAgeMinutes: number;
  /** A report is still accepted this long after its day ended; then the order is not achieved, h. */
  lateReportHours: number;
  /** The route rate is red from this many violations per 100 passengers checked. */
  rateRedAt: number;
}

/** The system settings document of spec section 3. */
export interface SystemSettings {
  journals: { retentionDays: number };
  maxCenterDeviation: number;
  messageFrequency: number;
  report_formats: string[];
  reports: { maxPeriodDays: number };
  /** Passenger-flow analyses (/system/passengers). */
  passengers: PassengerSettings;
  requestRadius: number;
  video: {
    maxRequestMinutes: number;
    archiveDays: number;
    /** Live stream address of a recorder's media server: {ip} {port} {serial} {dvr} {vehicle} {camera} {login} {password}. */
    mediaServerUrl: string;
    /** Its archive (a recorded HLS playlist of a period): the same and {from} {to} (ISO 8601). */
    mediaServerArchiveUrl: string;
    /** How long a stream address (its signed token) stays valid, s; a player asks for a fresh one when it fails. */
    streamTtlSeconds: number;
  };
  kkv: { enabled: boolean };
  /** Ticket control (/system/bc). */
  bc: BcSettings;
  egtsEquipmentDataMaxAge: number;
  /** The base map of every map (navigation settings). */
  baseMap: PublicBaseMap;
  /** The live timetable's thresholds (navigation settings). */
  dispatch: DispatchSettings;
  modules: Record<string, boolean>;
  sections: Record<string, boolean>;
}

/** Who a user is: the part of the account the current-user call and the users list share. */
export interface UserProfile {
  id: number;
  username: string;
  email: string | null;
  firstName: string;
  lastName: string;
  title: string;
  isBlocked: boolean;
}

export interface CurrentUser extends UserProfile {
  isSuperuser: boolean;
  roles: { id: number; name: string }[];
  permissions: PermissionMap;
  roleSettings: Record<string, unknown>;
  settings: SystemSettings;
  /** The saved map position (POST api/v1/auth/coord); the default centre until one is saved. */
  mapSettings: MapPosition;
  vehicle_count: number;
  users_count: number;
  build: { version: string; date: string };
  transporttype: { code: string; title: string; color: string }[];
  cameratype: { index: number; title: string }[];
  table_visibility: { table_name: string; fields: string[] }[];
}

export interface LoginResponse {
  token: string;
  user: CurrentUser;
}

export interface ErrorBody {
  messages: string[];
}

export interface ListResponse<T> {
  list: T[];
  count: number;
}

/** A user as GET /api/v1/users returns it and the administration screens write it (never a password). */
export interface UserRecord extends UserProfile {
  roles: number[];
  /** The employee (handbook «Сотрудники») the login works as: a ticket controller's work orders come through it. */
  workerId: number | null;
  createdAt?: string;
}

/** A role as GET /api/v1/roles returns it. */
export interface RoleRecord {
  id: number;
  name: string;
  description: string | null;
  isSystem: boolean;
  permissions: PermissionMap;
  usersCount: number;
}
