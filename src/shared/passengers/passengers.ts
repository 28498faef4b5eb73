/**
 * Passenger flow (SCREENS.md "Passenger flow"; permission codes 4, 5 and 33): what the server, the console
 * and the simulator share. The data model follows TIDES (stop visits, trips performed, fare transactions,
 * passenger journeys): src/server/db/migrations/070_passengers.sql.
 */

/** /system/passengers fields that shape the analyses; read on every request, so a save applies at once. */
export interface PassengerSettings {
  /** Morning and evening peak hours, [from, to) in the operator's hours. */
  morningPeakFrom: number;
  morningPeakTo: number;
  eveningPeakFrom: number;
  eveningPeakTo: number;
  /**
   * Load factor (departure load against total capacity), %: above `comfortLoadPercent` a trip is full, above
   * `crowdedLoadPercent` crowded.
   */
  comfortLoadPercent: number;
  crowdedLoadPercent: number;
  /** Trip chaining: the card's next boarding on another route within this many minutes is a transfer. */
  transferMinutes: number;
  /** Trip chaining: the inferred alighting stop is at most this far from the card's next boarding, m. */
  maxWalkMeters: number;
}

export const PASSENGER_DEFAULTS: PassengerSettings = {
  morningPeakFrom: 7,
  morningPeakTo: 10,
  eveningPeakFrom: 16,
  eveningPeakTo: 19,
  comfortLoadPercent: 60,
  crowdedLoadPercent: 90,
  transferMinutes: 60,
  maxWalkMeters: 600,
};

/** Total capacity (seated and standing) of a vehicle class; the handbook's capacity types give the seats. */
export const CLASS_CAPACITY: Readonly<Record<string, number>> = { МК: 40, СК: 75, БК: 110, ОБК: 160 };
/** Capacity of a vehicle whose class is unknown. */
export const DEFAULT_CAPACITY = 75;
export const CLASS_ORDER = ['МК', 'СК', 'БК', 'ОБК'] as const;

/**
 * The validation file of /import-data/tickets-validation (README "Passenger flow"): semicolon-separated,
 * UTF-8, a header line with these names (in any order; `stop_id` may be left out).
 */
export const VALIDATION_COLUMNS = ['time', 'validator', 'depot_number', 'route', 'ticket_type', 'card_token', 'stop_id'] as const;
export type ValidationColumn = (typeof VALIDATION_COLUMNS)[number];
export const VALIDATION_REQUIRED: readonly ValidationColumn[] = ['time', 'validator', 'ticket_type', 'card_token'];
export const CARD_TOKEN_MAX = 64;
/** Refused rows listed in the answer (all are counted). */
export const IMPORT_ERRORS_LISTED = 100;
/** Refused rows written to the pass-errors journal per import (all are counted in the history). */
export const IMPORT_ERRORS_JOURNALED = 1000;
/** Refused rows kept per import for their download (all are counted in the history). */
export const IMPORT_REFUSALS_KEPT = 100_000;

export const IMPORT_API = '/api/v1/passengers/validations/import';
export const SUMMARY_API = '/api/v1/passengers/analysis/summary';

/** One refused row of a validation file: its line (the header is line 1), column and reason. */
export interface ValidationRowError {
  line: number;
  column: string;
  reason: string;
}

export interface ValidationImportResult {
  id: number;
  rows: number;
  added: number;
  skipped: number;
  refused: number;
  errors: ValidationRowError[];
}

/** The overview of /passengers/analysis beside its table: the period against the previous one. */
export interface PassengerSummary {
  current: SummaryFigures;
  previous: SummaryFigures;
  byHour: { hour: number; passengers: number; previous: number }[];
  topRoutes: { name: string; passengers: number }[];
  /** By stop id (two stops of one name are two), exchange: boardings and alightings, as /passengers/stops counts it. */
  topStops: { id: number; name: string; passengers: number }[];
  settings: PassengerSettings;
}

export interface SummaryFigures {
  passengers: number;
  validations: number;
  trips: number;
  pkm: number;
  loadAvg: number;
  loadFactorAvg: number;
  loadFactorPeak: number;
  peakPassengers: number;
}
