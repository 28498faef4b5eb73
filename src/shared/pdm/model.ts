/**
 * PDM (on-board sensor data, SCREENS.md "On-board equipment", codes 35–43): the data-logger trees, their
 * nodes and the rules of a node's state. Shared by the server (ingestion, reports) and the console (tree
 * editor, legends), so a state is computed one way everywhere.
 */

/** A tree's node: a data logger (the root of a unit group), a unit (engine, doors, fuel system…), a sensor. */
export const NODE_KINDS = ['logger', 'unit', 'sensor'] as const;
export type NodeKind = (typeof NODE_KINDS)[number];

/**
 * The EGTS channel a sensor reads (ГОСТ 33465 teledata): analog input (AD_SENSORS_DATA ANSn, ABS_AN_SENS_DATA),
 * digital input (ADIO bits, numbered 1..64), counter (COUNTERS_DATA CNn, ABS_CNTR_DATA), liquid-level sensor
 * (LIQUID_LEVEL_SENSOR: MADDR × 8 + LLSN).
 */
export const CHANNEL_KINDS = ['analog', 'digital', 'counter', 'liquid'] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];
export const CHANNEL_LETTER: Readonly<Record<ChannelKind, string>> = { analog: 'A', digital: 'D', counter: 'C', liquid: 'L' };
export const CHANNEL_MAX = 65_535;

/** What a sensor measures: the heat map and the charts pick sensors of one type across vehicles and trees. */
export const SENSOR_TYPES = [
  'fuel_level',
  'engine_temp',
  'voltage',
  'door_cycles',
  'oil_pressure',
  'coolant_level',
  'tyre_pressure',
  'other',
] as const;
export type SensorType = (typeof SENSOR_TYPES)[number];

/** A node's state. 'no_data' is a state of its own (the node's silence time-out passed), never a zero value. */
export const NODE_STATES = ['normal', 'warning', 'fault', 'no_data'] as const;
export type NodeState = (typeof NODE_STATES)[number];
/** Worse first: a unit shows the worst state of its sensors. */
export const STATE_SEVERITY: Readonly<Record<NodeState, number>> = { fault: 3, warning: 2, no_data: 1, normal: 0 };
export const STATE_COLOURS: Readonly<Record<NodeState, string>> = {
  normal: '#2e7d32',
  warning: '#ed6c02',
  fault: '#d32f2f',
  no_data: '#9e9e9e',
};

export const NODE_NAME_MAX = 100;
export const TREE_NAME_MAX = 100;
export const MODEL_MAX = 50;
export const UNIT_MAX = 20;
export const SILENCE_MIN_S = 10;
export const SILENCE_MAX_S = 7 * 86_400;
export const SILENCE_DEFAULT_S = 300;
export const TREE_NODES_MAX = 2000;

/** The range rules of a sensor node; null bounds are open. */
export interface NodeRange {
  normal_min: number | null;
  normal_max: number | null;
  fault_min: number | null;
  fault_max: number | null;
}

/**
 * The state a reading puts its node in: a sensor reporting its own error (a liquid-level sensor's LLSEF) or a
 * value beyond the fault limits is a fault; outside the normal range but inside the fault limits a warning;
 * otherwise normal.
 */
export function stateOfReading(value: number, error: boolean, range: NodeRange): Exclude<NodeState, 'no_data'> {
  if (error) return 'fault';
  if ((range.fault_min !== null && value < range.fault_min) || (range.fault_max !== null && value > range.fault_max)) return 'fault';
  if ((range.normal_min !== null && value < range.normal_min) || (range.normal_max !== null && value > range.normal_max)) return 'warning';
  return 'normal';
}

/** The worst of several states; a unit without sensors reporting is 'no_data'. */
export function worstState(states: readonly NodeState[]): NodeState {
  let worst: NodeState | undefined;
  for (const state of states) if (!worst || STATE_SEVERITY[state] > STATE_SEVERITY[worst]) worst = state;
  return worst ?? 'no_data';
}

/** A channel as text: A1, D12, C2, L0. */
export const channelCode = (kind: ChannelKind, number: number): string => `${CHANNEL_LETTER[kind]}${number}`;

/** 'A1' → analog 1; undefined when not a channel code. */
export function parseChannelCode(text: string): { kind: ChannelKind; number: number } | undefined {
  const match = /^([ADCL])(\d{1,5})$/i.exec(text.trim());
  if (!match) return undefined;
  const kind = CHANNEL_KINDS.find((k) => CHANNEL_LETTER[k] === match[1].toUpperCase())!;
  const number = Number(match[2]);
  return number <= CHANNEL_MAX ? { kind, number } : undefined;
}

/** A tree node as the API answers it. */
export interface PdmNode extends NodeRange {
  id: number;
  tree_id: number;
  parent_id: number | null;
  position: number;
  name: string;
  kind: NodeKind;
  sensor_type: SensorType | null;
  channel_kind: ChannelKind | null;
  channel: number | null;
  unit: string | null;
  /** value = raw × scale + offset (a terminal sends millivolts, tenths of a degree…). */
  scale: number;
  offset: number;
  silence_s: number;
}

export interface PdmTree {
  id: number;
  name: string;
  model: string | null;
  nodes: number;
  vehicles: number;
}

/** The API of the area (besides the declared reports under /api/v1/reports/pdm/*). */
export const PDM_API = '/api/v1/pdm';
/** HTTP ingestion of sensor readings (per-source key, as positions). */
export const SENSORS_INGEST_PATH = '/api/v1/telemetry/sensors';
export const SENSORS_BATCH_MAX = 5000;

/** The charts screen: at most this many series (sensor × vehicle) at once, over at most CHART_MAX_DAYS. */
export const CHART_SERIES_MAX = 20;
export const CHART_MAX_DAYS = 93;

/** The import manager's two kinds of file. */
export const IMPORT_KINDS = ['sensors', 'service'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];
/** The fields each kind maps file columns to (required ones first). */
export const IMPORT_FIELDS: Readonly<Record<ImportKind, { required: readonly string[]; optional: readonly string[] }>> = {
  sensors: { required: ['depot_number', 'sensor', 'tm', 'value'], optional: ['error'] },
  service: { required: ['depot_number', 'node', 'tm', 'work'], optional: ['next_due', 'comment'] },
};
export const IMPORT_MAX_BYTES = 20 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 200_000;
export const SERVICE_WORKS = ['repair', 'maintenance', 'calibration', 'replacement'] as const;
export type ServiceWork = (typeof SERVICE_WORKS)[number];
