/**
 * The on-board equipment of a vehicle as units (SCREENS.md "On-board equipment"; console.md section 3's
 * handbooks DevMNT, dvr + DevCamera, DevPasspotok, validator, DevGSM). One model for diagnostics, remote
 * configuration and PDM: a unit is addressed as (kind, id) within its vehicle, its id being the row's key in
 * its handbook (for a camera the dev_camera id; for a validator its validator_id).
 */
export const UNIT_KINDS = ['terminal', 'recorder', 'camera', 'passengerCounter', 'validator', 'modem'] as const;
export type UnitKind = (typeof UNIT_KINDS)[number];

/** The handbook table each kind lives in, and its key column. */
export const UNIT_SOURCES: Readonly<Record<UnitKind, { table: string; key: string; handbook: string }>> = {
  terminal: { table: 'mgt.dev_mnt', key: 'id', handbook: 'mnt' },
  recorder: { table: 'mgt.dvr', key: 'id', handbook: 'dvr' },
  camera: { table: 'mgt.dev_camera', key: 'id', handbook: 'camera' },
  passengerCounter: { table: 'mgt.dev_passpotok', key: 'id', handbook: 'passpotok' },
  validator: { table: 'mgt.validator', key: 'validator_id', handbook: 'validator' },
  modem: { table: 'mgt.dev_gsm', key: 'id', handbook: 'gsm' },
};

export const UNIT_KIND_LABELS: Readonly<Record<UnitKind, string>> = {
  terminal: 'Терминал (МНТ)',
  recorder: 'Видеорегистратор',
  camera: 'Камера',
  passengerCounter: 'Датчик пассажиропотока',
  validator: 'Валидатор',
  modem: 'GSM-модем',
};

/**
 * A unit's state on the diagnostic screen: a fault reported (fault codes), its data older than
 * egtsEquipmentDataMaxAge (stale), never heard from (noData), switched off in its handbook (off), or ok.
 */
export const UNIT_STATES = ['ok', 'stale', 'fault', 'noData', 'off'] as const;
export type UnitState = (typeof UNIT_STATES)[number];

export interface EquipmentUnit {
  kind: UnitKind;
  id: number;
  vehicleId: number;
  /** What the console shows: the model, the door, the camera's position… */
  name: string;
  /** The parent unit (a camera's recorder). */
  parent?: { kind: UnitKind; id: number };
  /** Off in its handbook (a counter with enable 0, a modem with ModuleEnabled 0). */
  disabled: boolean;
}

/** The state of a unit from its last data, its fault codes and the age limit (seconds). */
export function unitState(
  unit: { disabled: boolean; faultCodes: readonly string[]; lastDataAt: number | null },
  now: number,
  maxAgeS: number,
): UnitState {
  if (unit.disabled) return 'off';
  if (unit.faultCodes.length > 0) return 'fault';
  if (unit.lastDataAt === null) return 'noData';
  return now - unit.lastDataAt > maxAgeS * 1000 ? 'stale' : 'ok';
}

/**
 * Fault codes a unit may report (the demo's, and what the console explains). Real units send their own
 * codes: an unknown code is shown as it came.
 */
export const FAULT_CODES: Readonly<Record<string, { kinds: readonly UnitKind[]; text: string }>> = {
  'MNT-GNSS': { kinds: ['terminal'], text: 'Нет решения ГНСС' },
  'MNT-PWR': { kinds: ['terminal'], text: 'Пониженное напряжение питания' },
  'DVR-HDD': { kinds: ['recorder'], text: 'Ошибка накопителя' },
  'DVR-FULL': { kinds: ['recorder'], text: 'Накопитель заполнен' },
  'CAM-SIGNAL': { kinds: ['camera'], text: 'Нет видеосигнала' },
  'CAM-DIRTY': { kinds: ['camera'], text: 'Загрязнение объектива' },
  'PPK-BLOCK': { kinds: ['passengerCounter'], text: 'Датчик перекрыт' },
  'PPK-LINK': { kinds: ['passengerCounter'], text: 'Нет связи с датчиком' },
  'VAL-READER': { kinds: ['validator'], text: 'Ошибка считывателя карт' },
  'VAL-SAM': { kinds: ['validator'], text: 'Ошибка SAM-модуля' },
  'GSM-SIM': { kinds: ['modem'], text: 'SIM-карта не обнаружена' },
  'GSM-SIGNAL': { kinds: ['modem'], text: 'Слабый сигнал сети' },
};
