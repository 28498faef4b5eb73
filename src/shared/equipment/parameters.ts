/**
 * The terminal parameters a configuration sets (after hawkBit's and Mender's "a configuration is a typed,
 * versioned set"): each with its type and range, and the EGTS parameter code (CCD of ГОСТ 33465's
 * EGTS_COMMANDS_SERVICE) that sets it on the terminal. The console's form and the server's check read this list.
 */
export type ParameterType = 'host' | 'port' | 'integer' | 'boolean' | 'text';

export interface TerminalParameter {
  key: string;
  label: string;
  type: ParameterType;
  min?: number;
  max?: number;
  maxLength?: number;
  required: boolean;
  /** Unit shown after the value. */
  unit?: string;
  /** EGTS command code (CCD). */
  ccd: number;
  defaultValue: string | number | boolean;
}

/**
 * ГОСТ 33465 codes where the standard has one (EGTS_GPRS_APN 0x0203, EGTS_SERVER_ADDRESS 0x0204 as
 * "host:port", EGTS_SERVER_CHECK_IN_PERIOD 0x0413, EGTS_SERVER_PACKET_OUT 0x0415,
 * EGTS_SERVER_PACKET_RETRANSMIT_ATTEMPTS 0x0416, EGTS_GNSS_MIN_ELEVATION 0x0303). The standard has no
 * "report positions every N s while moving / standing" for fleet terminals: those two use the
 * manufacturer-specific codes 0x8001 and 0x8002 the demo terminals understand. The server address and
 * port travel together as EGTS_SERVER_ADDRESS.
 */
export const TERMINAL_PARAMETERS: readonly TerminalParameter[] = [
  {
    key: 'serverHost',
    label: 'Адрес сервера',
    type: 'host',
    maxLength: 253,
    required: true,
    ccd: 0x0204,
    defaultValue: 'telematics.example.org',
  },
  { key: 'serverPort', label: 'Порт сервера', type: 'port', min: 1, max: 65535, required: true, ccd: 0x0204, defaultValue: 5162 },
  { key: 'apn', label: 'Точка доступа (APN)', type: 'text', maxLength: 64, required: true, ccd: 0x0203, defaultValue: 'internet' },
  {
    key: 'reportIntervalMoving',
    label: 'Интервал передачи в движении',
    type: 'integer',
    min: 1,
    max: 3600,
    unit: 'с',
    required: true,
    ccd: 0x8001,
    defaultValue: 5,
  },
  {
    key: 'reportIntervalStanding',
    label: 'Интервал передачи на стоянке',
    type: 'integer',
    min: 5,
    max: 86400,
    unit: 'с',
    required: true,
    ccd: 0x8002,
    defaultValue: 60,
  },
  {
    key: 'checkInPeriod',
    label: 'Период проверки связи с сервером',
    type: 'integer',
    min: 10,
    max: 3600,
    unit: 'с',
    required: false,
    ccd: 0x0413,
    defaultValue: 30,
  },
  {
    key: 'packetTimeout',
    label: 'Ожидание подтверждения пакета',
    type: 'integer',
    min: 1,
    max: 255,
    unit: 'с',
    required: false,
    ccd: 0x0415,
    defaultValue: 5,
  },
  {
    key: 'retransmitAttempts',
    label: 'Повторов передачи пакета',
    type: 'integer',
    min: 0,
    max: 255,
    required: false,
    ccd: 0x0416,
    defaultValue: 3,
  },
  {
    key: 'gnssMinElevation',
    label: 'Минимальный угол возвышения спутников',
    type: 'integer',
    min: 0,
    max: 90,
    unit: '°',
    required: false,
    ccd: 0x0303,
    defaultValue: 15,
  },
];

export type ParameterValues = Record<string, string | number | boolean>;

export const CONFIG_NAME_MAX = 100;
export const CONFIG_COMMENT_MAX = 1000;

const HOST = /^(?=.{1,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const PRINTABLE = /^[\x20-\x7e]*$/;

/** One problem with a parameter: its key and a catalogue code (src/shared/errors.ts). */
export interface ParameterProblem {
  key: string;
  code: 'mnt_parameter_required' | 'mnt_parameter_type' | 'mnt_parameter_range' | 'mnt_parameter_unknown';
}

/** Checks a parameter set against the declarations: unknown keys, missing required ones, types and ranges. */
export function validateParameters(values: Readonly<Record<string, unknown>>): ParameterProblem[] {
  const problems: ParameterProblem[] = [];
  for (const key of Object.keys(values))
    if (!TERMINAL_PARAMETERS.some((p) => p.key === key)) problems.push({ key, code: 'mnt_parameter_unknown' });
  for (const p of TERMINAL_PARAMETERS) {
    const value = values[p.key];
    if (value === undefined || value === null || value === '') {
      if (p.required) problems.push({ key: p.key, code: 'mnt_parameter_required' });
      continue;
    }
    switch (p.type) {
      case 'host':
        if (typeof value !== 'string') problems.push({ key: p.key, code: 'mnt_parameter_type' });
        else if (!HOST.test(value)) problems.push({ key: p.key, code: 'mnt_parameter_range' });
        break;
      case 'text':
        if (typeof value !== 'string') problems.push({ key: p.key, code: 'mnt_parameter_type' });
        else if (value.length > (p.maxLength ?? 200) || !PRINTABLE.test(value)) problems.push({ key: p.key, code: 'mnt_parameter_range' });
        break;
      case 'boolean':
        if (typeof value !== 'boolean') problems.push({ key: p.key, code: 'mnt_parameter_type' });
        break;
      case 'port':
      case 'integer':
        if (typeof value !== 'number' || !Number.isInteger(value)) problems.push({ key: p.key, code: 'mnt_parameter_type' });
        else if ((p.min !== undefined && value < p.min) || (p.max !== undefined && value > p.max))
          problems.push({ key: p.key, code: 'mnt_parameter_range' });
        break;
    }
  }
  return problems;
}

export const defaultParameters = (): ParameterValues => Object.fromEntries(TERMINAL_PARAMETERS.map((p) => [p.key, p.defaultValue]));

/**
 * The EGTS commands that set `values` on a terminal: one per CCD, the server address and port joined as
 * "host:port" (EGTS_SERVER_ADDRESS). Optional parameters left empty are not sent.
 */
export function parameterCommands(values: Readonly<ParameterValues>): { ccd: number; value: string | number | boolean }[] {
  const out: { ccd: number; value: string | number | boolean }[] = [];
  for (const p of TERMINAL_PARAMETERS) {
    const value = values[p.key];
    if (value === undefined || value === '') continue;
    if (p.key === 'serverHost') out.push({ ccd: p.ccd, value: `${value}:${values.serverPort ?? 5162}` });
    else if (p.key !== 'serverPort') out.push({ ccd: p.ccd, value });
  }
  return out;
}
