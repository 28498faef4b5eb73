/**
 * What each journal screen shows (spec section 2, /journal/*): its columns (the API's row fields,
 * journalDefinitions.ts on the server), the default sort, the user or vehicle filter, and the type
 * filter (a list of known values, or free text).
 */
export type JournalId = 'useractions' | 'eventsts' | 'eventspo' | 'video' | 'adas';

export type ColumnKind = 'time' | 'text' | 'number' | 'json' | 'action' | 'object' | 'kind';

export interface JournalColumn {
  source: string;
  kind: ColumnKind;
  sortable: boolean;
}

export interface JournalSpec {
  id: JournalId;
  /** react-admin resource (the console path without its slash). */
  resource: string;
  timeField: string;
  columns: JournalColumn[];
  by: 'user' | 'vehicle';
  /** Known values of the type filter (their labels journals.<labels>.<value>), or free text. */
  types?: { values: readonly string[]; labels: string; label: string };
  /** Label of a free-text type filter. */
  typeText?: string;
  /** Rows open to a before/after view. */
  expandable?: boolean;
}

const col = (source: string, kind: ColumnKind = 'text', sortable = false): JournalColumn => ({ source, kind, sortable });
const vehicleColumns = [col('depot_number', 'text', true), col('state_number'), col('vehicle_id', 'number', true)];

export const USER_ACTIONS = ['login', 'logout', 'create', 'update', 'delete', 'block', 'unblock'] as const;
export const VEHICLE_EVENT_KINDS = ['connect', 'disconnect', 'pass_error'] as const;

export const JOURNAL_SPECS: Readonly<Record<JournalId, JournalSpec>> = {
  useractions: {
    id: 'useractions', resource: 'journal/useractions', timeField: 'at', by: 'user', expandable: true,
    columns: [col('at', 'time', true), col('username', 'text', true), col('page_id', 'text', true), col('action', 'action', true), col('object', 'object', true)],
    types: { values: USER_ACTIONS, labels: 'actions', label: 'journals.filters.action' },
  },
  eventsts: {
    id: 'eventsts', resource: 'journal/eventsts', timeField: 'at', by: 'vehicle',
    columns: [col('at', 'time', true), ...vehicleColumns, col('kind', 'kind', true), col('details', 'json')],
    types: { values: VEHICLE_EVENT_KINDS, labels: 'kinds', label: 'journals.filters.type' },
  },
  eventspo: {
    id: 'eventspo', resource: 'journal/eventspo', timeField: 'at', by: 'vehicle',
    columns: [col('at', 'time', true), ...vehicleColumns, col('kind', 'kind', true), col('severity', 'text', true), col('message'), col('details', 'json')],
    typeText: 'journals.filters.type',
  },
  video: {
    id: 'video', resource: 'journal/video', timeField: 'at', by: 'vehicle',
    columns: [col('at', 'time', true), ...vehicleColumns, col('kind', 'kind', true), col('camera', 'number', true), col('request_id', 'number'), col('message')],
    typeText: 'journals.filters.type',
  },
  adas: {
    id: 'adas', resource: 'journal/adas', timeField: 'tm', by: 'vehicle',
    columns: [
      col('tm', 'time', true), ...vehicleColumns, col('incident_type', 'number', true), col('incident_name'), col('grade', 'number', true),
      col('speed', 'number', true), col('route_name'), col('lat', 'number'), col('lon', 'number'),
    ],
    typeText: 'journals.filters.incident',
  },
};

/** The journal of a /journal/* address. */
export function journalOf(pathname: string): JournalId | undefined {
  const id = /^\/journal\/([a-z]+)/.exec(pathname)?.[1];
  return id && id in JOURNAL_SPECS ? (id as JournalId) : undefined;
}

/** Column label: journals.columns.<source> (adas' time column reads as the others'). */
export const columnLabel = (source: string) => `journals.columns.${source === 'tm' ? 'at' : source}`;
