import { HANDBOOK_SECTIONS_OFF, HANDBOOK_SECTIONS_ON } from './handbooks/handbookTypes';

/**
 * Module and section switches (spec section 2). A route appears only when its module and its section are on.
 * Defaults here; the server overrides them from configuration (env) and, later, from system settings.
 */
export const MODULES = [
  'map',
  'video',
  'passengers',
  'bc',
  'importData',
  'mntConfiguration',
  'vehicleWorkData',
  'vehicleDiagnostic',
  'pdm',
  'adas',
  'dispatch',
  'system',
  'handbooks',
  'journals',
  'administration',
] as const;
export type ModuleId = (typeof MODULES)[number];

export const MODULES_OFF_BY_DEFAULT: readonly ModuleId[] = ['bc', 'vehicleWorkData', 'pdm', 'dispatch'];

// Written from the schema files (each declares its section's default and menu place).
export { HANDBOOK_SECTIONS_ON, HANDBOOK_SECTIONS_OFF } from './handbooks/handbookTypes';
export type HandbookType = (typeof HANDBOOK_SECTIONS_ON)[number] | (typeof HANDBOOK_SECTIONS_OFF)[number];

export const JOURNAL_SWITCHES = ['userActions', 'vehicleConnectEvents', 'passErrors', 'softwareEvents', 'videoEvents'] as const;
export type JournalSwitch = (typeof JOURNAL_SWITCHES)[number];

/** Section ids: 'handbooks.<type>', 'journals.<switch>', and the named optional screens. */
export const SECTIONS_OFF_BY_DEFAULT: readonly string[] = [
  'video.archiveMonitoring',
  'passengers.registry',
  'passengers.correspondence',
  ...HANDBOOK_SECTIONS_OFF.map((type) => `handbooks.${type}`),
];

export interface Switches {
  modules: Record<string, boolean>;
  sections: Record<string, boolean>;
}

/** The module and section switches in force for a user, as the current-user call returns them. */
export function switchesOf(
  user: { settings?: { modules?: Record<string, boolean>; sections?: Record<string, boolean> } } | null | undefined,
): Switches {
  return { modules: user?.settings?.modules ?? {}, sections: user?.settings?.sections ?? {} };
}

/**
 * The switches before configuration: the spec's defaults for a production install; with the demo data every
 * module and section on, so that a newcomer sees the whole product. MODULES and SECTIONS apply on top of either.
 */
export function defaultSwitches(demo = false): Switches {
  const modules: Record<string, boolean> = {};
  for (const id of MODULES) modules[id] = demo || !MODULES_OFF_BY_DEFAULT.includes(id);
  const sections: Record<string, boolean> = {};
  if (!demo) for (const id of SECTIONS_OFF_BY_DEFAULT) sections[id] = false;
  return { modules, sections };
}

/** Unlisted sections are on: only what the spec names as switchable can be switched off. */
export function isEnabled(switches: Switches, module: string, section?: string): boolean {
  if (switches.modules[module] === false) return false;
  if (section && switches.sections[section] === false) return false;
  return true;
}

/** Applies a list such as MODULES=a,b,-c: a name turns a switch on, a leading '-' turns it off. */
export function applySwitchList(target: Record<string, boolean>, names: readonly string[]): void {
  for (const name of names) {
    if (name.startsWith('-')) target[name.slice(1)] = false;
    else target[name] = true;
  }
}
