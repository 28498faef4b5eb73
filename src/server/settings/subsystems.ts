import type { ModuleId } from '../../shared/modules';
import { JOURNAL_SECTIONS } from './knownSwitches';
import type { TunableKey } from './settingsDocument';

export type SubsystemId = 'navigation' | 'video' | 'passengers' | 'journals' | 'bc' | 'eis';

/**
 * One page of /system/*: the settings fields it owns, the switches it may turn, and the right that guards it
 * (spec section 6: separate access per subsystem; EIS import uses the handbook-settings right, code 6, which
 * grants '/system/eis'). A field belongs to exactly one subsystem, so no right can change another's fields.
 */
export interface Subsystem {
  id: SubsystemId;
  /** Permission path: read to GET, update to PUT. */
  path: string;
  /** Section of the console route (/system/bc is switchable). */
  section?: string;
  /** Russian name used in the API summaries. */
  title: string;
  keys: TunableKey[];
  modules: ModuleId[];
  sections: string[];
}

export const SUBSYSTEMS: readonly Subsystem[] = [
  {
    id: 'navigation',
    path: '/system/navigation',
    title: 'навигации',
    keys: ['maxCenterDeviation', 'messageFrequency', 'requestRadius', 'egtsEquipmentDataMaxAge', 'baseMap', 'dispatch'],
    modules: [],
    sections: [],
  },
  { id: 'video', path: '/system/video', title: 'видео', keys: ['video'], modules: [], sections: ['video.archiveMonitoring'] },
  {
    id: 'passengers',
    path: '/system/passengers',
    title: 'пассажиропотока',
    keys: ['report_formats', 'reports', 'passengers'],
    modules: [],
    sections: ['passengers.registry', 'passengers.correspondence'],
  },
  { id: 'journals', path: '/system/journals', title: 'журналов', keys: ['journals'], modules: [], sections: [...JOURNAL_SECTIONS] },
  { id: 'bc', path: '/system/bc', section: 'system.bc', title: 'контроля оплаты', keys: ['kkv', 'bc'], modules: ['bc'], sections: [] },
  { id: 'eis', path: '/system/eis', title: 'импорта из внешней информационной системы (ЕИС)', keys: ['eis'], modules: [], sections: [] },
];
