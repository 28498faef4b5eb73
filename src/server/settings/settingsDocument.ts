import { createHash } from 'node:crypto';
import type { SystemSettings } from '../../shared/api';
import { NO_BASE_MAP, type BaseMapSettings, type PublicBaseMap } from '../../shared/baseMap';
import type { Switches } from '../../shared/modules';
import { PASSENGER_DEFAULTS } from '../../shared/passengers/passengers';
import { DISPATCH_DEFAULTS } from '../../shared/dispatch/settings';

/**
 * Import from the external information system (EIS): where from, when, and whether at all. Kept out of the
 * document every user receives (CurrentUser.settings): the source URL may carry credentials, and only holders
 * of the handbook-settings right read it.
 */
export interface EisSettings {
  enabled: boolean;
  /** http(s) address of the EIS export; empty while not configured. */
  sourceUrl: string;
  /** Daily import times 'HH:MM' in the server's time zone. */
  schedule: string[];
}

/** The whole stored settings document: the shared SystemSettings plus what only the server reads. */
export type SettingsDocument = Omit<SystemSettings, 'baseMap'> & { eis: EisSettings; baseMap: BaseMapSettings };

/** Keys of the document other than the module and section switches. */
export type TunableKey = Exclude<keyof SettingsDocument, 'modules' | 'sections'>;
export type Tunables = Omit<SettingsDocument, 'modules' | 'sections'>;

export const DEFAULTS: Tunables = {
  journals: { retentionDays: 365 },
  maxCenterDeviation: 100,
  messageFrequency: 30,
  report_formats: ['csv', 'xlsx'],
  reports: { maxPeriodDays: 31 },
  passengers: PASSENGER_DEFAULTS,
  requestRadius: 500,
  video: {
    maxRequestMinutes: 30,
    archiveDays: 14,
    mediaServerUrl: 'http://{ip}:{port}/live/{serial}/{camera}/index.m3u8',
    mediaServerArchiveUrl: 'http://{ip}:{port}/archive/{serial}/{camera}/index.m3u8?from={from}&to={to}',
    streamTtlSeconds: 6 * 3600,
  },
  kkv: { enabled: false },
  bc: { photoMaxMb: 10, coordIntervalSeconds: 30, positionMaxAgeMinutes: 30, lateReportHours: 12, rateRedAt: 8 },
  egtsEquipmentDataMaxAge: 300,
  baseMap: NO_BASE_MAP,
  dispatch: DISPATCH_DEFAULTS,
  eis: { enabled: false, sourceUrl: '', schedule: ['03:00'] },
};

export const TUNABLE_KEYS = Object.keys(DEFAULTS) as TunableKey[];

/** What app.settings.value may hold: any subset of the document, as an administrator last saved it. */
export type StoredSettings = Record<string, unknown>;

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The document in force: defaults (those the environment gives, such as TILE_SOURCE's base map, first), then the
 * environment's switches, then the stored values. Object-valued
 * settings merge one level deep so that saving one field of `video` keeps the defaults of the others; keys the
 * document does not know (left by an older version) are dropped rather than passed to every client.
 */
export function effectiveSettings(stored: StoredSettings, envSwitches: Switches, envDefaults: Partial<Tunables> = {}): SettingsDocument {
  const tunables: Record<string, unknown> = {};
  for (const key of TUNABLE_KEYS) {
    const fallback: unknown = envDefaults[key] ?? DEFAULTS[key];
    const value = stored[key];
    if (isPlainObject(fallback)) tunables[key] = { ...fallback, ...(isPlainObject(value) ? value : {}) };
    else tunables[key] = value ?? fallback;
  }
  const storedModules = isPlainObject(stored.modules) ? stored.modules : {};
  const storedSections = isPlainObject(stored.sections) ? stored.sections : {};
  return {
    ...(tunables as Tunables),
    modules: { ...envSwitches.modules, ...(storedModules as Record<string, boolean>) },
    sections: { ...envSwitches.sections, ...(storedSections as Record<string, boolean>) },
  };
}

/** The document without what stays on the server (see EisSettings and PublicBaseMap). */
export function publicSettings(document: SettingsDocument): SystemSettings {
  const { eis: _eis, baseMap, ...shared } = document;
  return { ...shared, baseMap: publicBaseMap(baseMap) };
}

function publicBaseMap({ kind, location, attribution }: BaseMapSettings): PublicBaseMap {
  const revision = kind === 'none' ? '' : createHash('sha256').update(`${kind}:${location}`).digest('hex').slice(0, 12);
  return { kind, attribution, revision };
}
