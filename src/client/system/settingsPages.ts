/**
 * The pages of /system/* (spec sections 3 and 6) and their fields, with the ranges the server validates
 * (src/shared/settings/fields.ts) for the client-side check. Labels are settings.fields.<source>; the page's
 * module and section switches come with its GET.
 */
import { BASE_MAP_KINDS } from '../../shared/baseMap';
import { fieldRange, REPORT_FORMATS } from '../../shared/settings/fields';

export type SubsystemId = 'navigation' | 'video' | 'passengers' | 'journals' | 'bc' | 'eis';

export type SettingsField =
  | { kind: 'int'; source: string; min: number; max: number }
  | { kind: 'bool'; source: string }
  | { kind: 'formats'; source: string; choices: readonly string[] }
  | { kind: 'url'; source: string; enabledBy: string }
  | { kind: 'schedule'; source: string }
  | { kind: 'template'; source: string }
  | { kind: 'choice'; source: string; choices: readonly string[]; labels: string }
  | { kind: 'text'; source: string; hint: string; maxLength: number };

export interface SettingsPageSpec {
  id: SubsystemId;
  /** Console path: its permission key (read to see, update to save). */
  path: string;
  /** GET and PUT. */
  api: string;
  fields: SettingsField[];
}

const int = (source: string): SettingsField => ({ kind: 'int', source, ...fieldRange(source) });
const page = (id: SubsystemId, fields: SettingsField[]): SettingsPageSpec => ({
  id,
  path: `/system/${id}`,
  api: `/api/v1/settings/${id}`,
  fields,
});

export const SETTINGS_PAGES: Readonly<Record<SubsystemId, SettingsPageSpec>> = {
  navigation: page('navigation', [
    int('maxCenterDeviation'),
    int('messageFrequency'),
    int('requestRadius'),
    int('egtsEquipmentDataMaxAge'),
    { kind: 'choice', source: 'baseMap.kind', choices: BASE_MAP_KINDS, labels: 'settings.baseMapKinds' },
    { kind: 'text', source: 'baseMap.location', hint: 'settings.baseMapHint', maxLength: 2000 },
    { kind: 'text', source: 'baseMap.attribution', hint: 'settings.attributionHint', maxLength: 300 },
    int('dispatch.lateSeconds'),
    int('dispatch.earlySeconds'),
    int('dispatch.bunchingPercent'),
    int('dispatch.gapPercent'),
    int('dispatch.stopRadiusMeters'),
    int('dispatch.offRouteSeconds'),
    int('dispatch.noSignalSeconds'),
    int('dispatch.exitStartSeconds'),
    int('dispatch.runMissedSeconds'),
  ]),
  video: page('video', [
    int('video.maxRequestMinutes'),
    int('video.archiveDays'),
    { kind: 'template', source: 'video.mediaServerUrl' },
    { kind: 'template', source: 'video.mediaServerArchiveUrl' },
    int('video.streamTtlSeconds'),
  ]),
  passengers: page('passengers', [
    { kind: 'formats', source: 'report_formats', choices: REPORT_FORMATS },
    int('reports.maxPeriodDays'),
    int('passengers.morningPeakFrom'),
    int('passengers.morningPeakTo'),
    int('passengers.eveningPeakFrom'),
    int('passengers.eveningPeakTo'),
    int('passengers.comfortLoadPercent'),
    int('passengers.crowdedLoadPercent'),
    int('passengers.transferMinutes'),
    int('passengers.maxWalkMeters'),
  ]),
  journals: page('journals', [int('journals.retentionDays')]),
  bc: page('bc', [
    { kind: 'bool', source: 'kkv.enabled' },
    int('bc.photoMaxMb'),
    int('bc.coordIntervalSeconds'),
    int('bc.positionMaxAgeMinutes'),
    int('bc.lateReportHours'),
    int('bc.rateRedAt'),
  ]),
  eis: page('eis', [
    { kind: 'bool', source: 'eis.enabled' },
    { kind: 'url', source: 'eis.sourceUrl', enabledBy: 'eis.enabled' },
    { kind: 'schedule', source: 'eis.schedule' },
  ]),
};

/** The subsystem of a /system/* address. */
export function subsystemOf(pathname: string): SubsystemId | undefined {
  const id = /^\/system\/([a-z]+)/.exec(pathname)?.[1];
  return id && id in SETTINGS_PAGES ? (id as SubsystemId) : undefined;
}

/** The module and section switches of the whole system (GET/PUT, behind the roles right). */
export const MODULES_API = '/api/v1/settings/modules';
export const MODULES_PATH = '/roles';
