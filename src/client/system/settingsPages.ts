/**
 * The pages of /system/* (spec sections 3 and 6) and their fields, with the server's ranges
 * (src/server/settings/settingsSchemas.ts) mirrored for the client-side check. Labels are
 * settings.fields.<source>; the page's module and section switches come with its GET.
 */
import { BASE_MAP_KINDS } from '../../shared/baseMap';

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

const int = (source: string, min: number, max: number): SettingsField => ({ kind: 'int', source, min, max });
const page = (id: SubsystemId, fields: SettingsField[]): SettingsPageSpec => ({ id, path: `/system/${id}`, api: `/api/v1/settings/${id}`, fields });

export const REPORT_FORMATS = ['csv', 'xlsx', 'pdf'] as const;

export const SETTINGS_PAGES: Readonly<Record<SubsystemId, SettingsPageSpec>> = {
  navigation: page('navigation', [
    int('maxCenterDeviation', 0, 100_000),
    int('messageFrequency', 1, 3600),
    int('requestRadius', 1, 100_000),
    int('egtsEquipmentDataMaxAge', 1, 604_800),
    { kind: 'choice', source: 'baseMap.kind', choices: BASE_MAP_KINDS, labels: 'settings.baseMapKinds' },
    { kind: 'text', source: 'baseMap.location', hint: 'settings.baseMapHint', maxLength: 2000 },
    { kind: 'text', source: 'baseMap.attribution', hint: 'settings.attributionHint', maxLength: 300 },
    int('dispatch.lateSeconds', 1, 7200),
    int('dispatch.earlySeconds', 1, 7200),
    int('dispatch.bunchingPercent', 1, 99),
    int('dispatch.gapPercent', 101, 1000),
    int('dispatch.stopRadiusMeters', 5, 500),
    int('dispatch.offRouteSeconds', 1, 3600),
    int('dispatch.noSignalSeconds', 10, 86_400),
    int('dispatch.exitStartSeconds', 0, 7200),
    int('dispatch.runMissedSeconds', 0, 14_400),
  ]),
  video: page('video', [
    int('video.maxRequestMinutes', 1, 1440),
    int('video.archiveDays', 1, 365),
    { kind: 'template', source: 'video.mediaServerUrl' },
    { kind: 'template', source: 'video.mediaServerArchiveUrl' },
    int('video.streamTtlSeconds', 10, 604_800),
  ]),
  passengers: page('passengers', [
    { kind: 'formats', source: 'report_formats', choices: REPORT_FORMATS },
    int('reports.maxPeriodDays', 1, 366),
    int('passengers.morningPeakFrom', 0, 23),
    int('passengers.morningPeakTo', 1, 24),
    int('passengers.eveningPeakFrom', 0, 23),
    int('passengers.eveningPeakTo', 1, 24),
    int('passengers.comfortLoadPercent', 1, 200),
    int('passengers.crowdedLoadPercent', 1, 200),
    int('passengers.transferMinutes', 1, 360),
    int('passengers.maxWalkMeters', 50, 5000),
  ]),
  journals: page('journals', [int('journals.retentionDays', 1, 3650)]),
  bc: page('bc', [
    { kind: 'bool', source: 'kkv.enabled' },
    int('bc.photoMaxMb', 1, 50),
    int('bc.coordIntervalSeconds', 5, 3600),
    int('bc.positionMaxAgeMinutes', 1, 1440),
    int('bc.lateReportHours', 0, 72),
    int('bc.rateRedAt', 1, 100),
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
