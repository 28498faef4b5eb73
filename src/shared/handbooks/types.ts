import type { HandbookType } from '../modules';

export type { HandbookType };

/**
 * The declarative handbook definition (DESIGN.md 'Schema-driven handbooks'). One value of HandbookSchema
 * per file in schemas/; from it come the generated react-admin screens, the yup validation of form,
 * save and import, the CSV headers, and the whitelist of table and column names the server puts in SQL.
 * Everything here is plain data (no functions, no RegExp, no Node imports): server, console and field app
 * all import it.
 */

/** PostgreSQL schemas that hold handbook tables (spec section 3). */
export type DbSchemaName = 'mgt' | 'cat' | 'adas';

interface FieldBase {
  /** The column name (the spec's field name); for point and widget fields a name of our own. */
  name: string;
  /** Russian label of the column, form input and CSV documentation. */
  label: string;
  /** Refused empty with 'Это обязательное поле'. */
  required?: boolean;
  /** Off by default in the list's columns (the user may turn it on); still in the form. */
  hidden?: boolean;
  /** Shown, never written from input: database-generated keys, server-set stamps. */
  readOnly?: boolean;
  /** A hint under the form input. */
  help?: string;
  /**
   * Suggested values: the distinct values of `column` in the rows of `handbook` that match this record on
   * `match` (target column → this record's column). Vehicle assignment: exits and shifts come from the
   * schedule times of the chosen schedule variant (spec section 3). Any value may still be typed.
   */
  choicesFrom?: ChoicesFrom;
}

export interface ChoicesFrom {
  handbook: HandbookType;
  column: string;
  match: Readonly<Record<string, string>>;
}

export interface TextField extends FieldBase {
  kind: 'text';
  maxLength?: number;
  /** Named character rules of spec section 5 (messages in messages.ts). */
  pattern?: 'nameChars' | 'latinCode';
  multiline?: boolean;
  /** Passwords: a masked input, hidden from the list by default. */
  secret?: boolean;
  default?: string;
}

export interface IntField extends FieldBase {
  kind: 'int';
  min?: number;
  max?: number;
  /** Limit stated as digits in the spec (incident_type: at most 8 digits). */
  maxDigits?: number;
  /** A serial key the database assigns. */
  auto?: boolean;
  default?: number;
}

/** int8 values beyond a JS number (peer_address up to 9223372036854775807): digits as text end to end. */
export interface BigintField extends FieldBase {
  kind: 'bigint';
  min?: string;
  max?: string;
  auto?: boolean;
}

export interface NumberField extends FieldBase {
  kind: 'number';
  min?: number;
  max?: number;
  /** Digits after the point shown in the list. */
  decimals?: number;
}

export interface BooleanField extends FieldBase {
  kind: 'boolean';
  default?: boolean;
  /**
   * Dependent flag (media-server use of dvr and MNT): true when all these fields are filled, false when
   * any is empty; the form shows it read-only and the server applies it on save.
   */
  setWhenFilled?: readonly string[];
}

/** A calendar date, 'YYYY-MM-DD' in the API; shown DD.MM.YYYY. */
export interface DateField extends FieldBase {
  kind: 'date';
}

export interface DateTimeField extends FieldBase {
  kind: 'datetime';
  /** Stamped with the current time by the server on every save (vehicles.update_date). */
  setOnSave?: boolean;
}

/** Minutes (of day) stored as an integer, shown and entered as hh:mm (src/shared/time.ts rules). */
export interface MinutesField extends FieldBase {
  kind: 'minutes';
}

export interface ListOption {
  /** null is a real choice where the spec has one ('any day', 'not set'). */
  value: number | string | null;
  label: string;
}

/** A fixed list of values (spec: 'list: empty, B start of trip, E end of trip'). */
export interface ListField extends FieldBase {
  kind: 'list';
  valueType: 'int' | 'text';
  options: readonly ListOption[];
}

/** A link to another handbook: the column holds the target's valueField; lists show its displayField. */
export interface RefField extends FieldBase {
  kind: 'ref';
  target: HandbookType;
  /** Usually the target's primary key; routes.route_type links to TransportType by note. */
  valueField: string;
  valueType: 'int' | 'text';
  /** Target column(s) shown instead of the value; several are joined by a space. */
  displayField: string | readonly string[];
}

/** IPv4 text: four dot-separated groups of 1..3 digits; `octets` also bounds each to 0..255. */
export interface IpField extends FieldBase {
  kind: 'ip';
  octets?: boolean;
}

export interface PortField extends FieldBase {
  kind: 'port';
}

export interface ColorField extends FieldBase {
  kind: 'color';
  /** '#000000' per spec section 9. */
  default: string;
}

/** A lat/lon pair of two double columns edited as one field (map picker). */
export interface PointField extends FieldBase {
  kind: 'point';
  lat: string;
  lon: string;
}

/** geometry columns: WKT text in the API and in CSV. */
export interface PolygonField extends FieldBase {
  kind: 'polygon';
}
export interface LineField extends FieldBase {
  kind: 'line';
}

/**
 * A part of the record the generator cannot express as one input; the schema names the widget.
 * - tripStops: the trip's ordered stops, edited through GET/POST /api/table/tripstops (no column).
 * - dvrCameras: the recorder's cameras as a list of camera type ids (mgt.dev_camera rows), read in the
 *   list and replaced on save.
 */
export interface WidgetField extends FieldBase {
  kind: 'widget';
  widget: 'tripStops' | 'dvrCameras';
}

export type Field =
  | TextField
  | IntField
  | BigintField
  | NumberField
  | BooleanField
  | DateField
  | DateTimeField
  | MinutesField
  | ListField
  | RefField
  | IpField
  | PortField
  | ColorField
  | PointField
  | PolygonField
  | LineField
  | WidgetField;

export type FieldKind = Field['kind'];

export type SortOrder = 'ASC' | 'DESC';
export interface SortSpec {
  field: string;
  order: SortOrder;
}

/** Cross-field rules (spec section 5). */
export interface LaterThanRule {
  rule: 'laterThan';
  /** This date must be later than `than` when both are set ('Дата окончания не может быть меньше даты ввода'). */
  field: string;
  than: string;
}
export type RowRule = LaterThanRule;

/**
 * How an import applies the validated file (always all or nothing, in one transaction):
 * - upsert: rows whose primary key is given update that row (or insert it with that key); rows without insert.
 * - insert: every row is inserted (holidays).
 * - replace: rows of the table matching any file row on `keys` are deleted, then the file inserted
 *   (schedule variants per srv_id, schedule times per schedule variant).
 * - merge: rows matching a file row on `keys` are updated, the others inserted (work graphic types by code).
 * - procedure: each row goes through a database procedure, at its own endpoint (vehicle assignment).
 */
export type ImportMode = 'upsert' | 'insert' | 'replace' | 'merge' | 'procedure';

export interface ImportSpec {
  /** CSV header line (semicolon-separated), column names; export writes the same unless exportHeaders. */
  headers: readonly string[];
  /** One valid row, cells as written in the file (referencing the test data's small ids). */
  example: readonly string[];
  mode: ImportMode;
  keys?: readonly string[];
  /** The interface offers no import button (vehicle replacement); the API still works. */
  hidden?: boolean;
  /** For mode 'procedure': the path under /api/table/import/ the client posts the file to. */
  endpoint?: 'appoint-vehicles-to-route';
  /** The first line may be data rather than headers (vehicle assignment). */
  headerOptional?: boolean;
}

export interface HandbookSchema {
  type: HandbookType;
  /** Russian title of the menu entry and page. */
  title: string;
  /** Its title in the English catalogue (the role editor's and the module switches' labels). */
  titleEn: string;
  /**
   * Its section switch (`handbooks.<type>`): on or off in a production install until an administrator
   * switches it, and its place in the menu (ascending). The registry is written from this
   * (scripts/build/handbookRegistry.mjs reads it from the file's text: keep it one literal).
   */
  section: { onByDefault: boolean; menuOrder: number };
  table: { schema: DbSchemaName; name: string };
  primaryKey: string;
  fields: readonly Field[];
  defaultSort: SortSpec;
  rules?: readonly RowRule[];
  import: ImportSpec;
  /** Export columns when they differ from the import's (procedure imports read other columns). */
  exportHeaders?: readonly string[];
  /** With exportHeaders: one record in those columns (the import's example is not a record of the table). */
  recordExample?: readonly string[];
  /** Extra actions on the list screen. addCamerasToVehicle: POST /api/widget/addcamersvehicle. */
  widgets?: readonly 'addCamerasToVehicle'[];
  /** Field app page size (field-app.md section 9); absent when the field app does not list it. */
  mobile?: { pageSize: number };
  /** Where the data comes from when not typed in (incident types, vehicles, recorders: a reporting source). */
  note?: string;
}

/** Identity for type checking the literal in each schemas/ file. */
export function defineHandbook(schema: HandbookSchema): HandbookSchema {
  return schema;
}
