import { HANDBOOK_SECTIONS_OFF, HANDBOOK_SECTIONS_ON, type HandbookType } from '../modules';
import type { HandbookSchema } from './types';
import agency from '../../../schemas/agency';
import park from '../../../schemas/park';
import driver from '../../../schemas/driver';
import mnttype from '../../../schemas/mnttype';
import dvr from '../../../schemas/dvr';
import cameratype from '../../../schemas/cameratype';
import vehicletype from '../../../schemas/vehicletype';
import capacitytype from '../../../schemas/capacitytype';
import vehicles from '../../../schemas/vehicles';
import stops from '../../../schemas/stops';
import marshtype from '../../../schemas/marshtype';
import routes from '../../../schemas/routes';
import routevariants from '../../../schemas/routevariants';
import trips from '../../../schemas/trips';
import tripstops from '../../../schemas/tripstops';
import holidays from '../../../schemas/holidays';
import raspvariants from '../../../schemas/raspvariants';
import rasptimes from '../../../schemas/rasptimes';
import vehicletask from '../../../schemas/vehicletask';
import replacevehicle from '../../../schemas/replacevehicle';
import ticketviews from '../../../schemas/ticketviews';
import tickettypes from '../../../schemas/tickettypes';
import routestop from '../../../schemas/routestop';
import rasptimelink from '../../../schemas/rasptimelink';
import incidenttypes from '../../../schemas/incidenttypes';
import dvrtype from '../../../schemas/dvrtype';
import mnt from '../../../schemas/mnt';
import passpotok from '../../../schemas/passpotok';
import gsm from '../../../schemas/gsm';
import camera from '../../../schemas/camera';
import validator from '../../../schemas/validator';
import district from '../../../schemas/district';
import department from '../../../schemas/department';
import controlregion from '../../../schemas/controlregion';
import equipmentmodel from '../../../schemas/equipmentmodel';
import controllerequipment from '../../../schemas/controllerequipment';
import controllercard from '../../../schemas/controllercard';
import graphictype from '../../../schemas/graphictype';

/**
 * Every handbook definition by its type key (the keys of src/shared/modules.ts). Server and both front
 * ends import this; the server builds SQL only from names found here.
 */
export const HANDBOOKS: Readonly<Record<HandbookType, HandbookSchema>> = {
  agency,
  park,
  driver,
  mnttype,
  dvr,
  cameratype,
  vehicletype,
  capacitytype,
  vehicles,
  stops,
  marshtype,
  routes,
  routevariants,
  trips,
  tripstops,
  holidays,
  raspvariants,
  rasptimes,
  vehicletask,
  replacevehicle,
  ticketviews,
  tickettypes,
  routestop,
  rasptimelink,
  incidenttypes,
  dvrtype,
  mnt,
  passpotok,
  gsm,
  camera,
  validator,
  district,
  department,
  controlregion,
  equipmentmodel,
  controllerequipment,
  controllercard,
  graphictype,
};

/** Menu order: enabled-by-default sections first, as in src/shared/modules.ts. */
export const HANDBOOK_TYPES: readonly HandbookType[] = [...HANDBOOK_SECTIONS_ON, ...HANDBOOK_SECTIONS_OFF];

export function isHandbookType(value: unknown): value is HandbookType {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(HANDBOOKS, value);
}

export function handbookSchema(type: unknown): HandbookSchema | undefined {
  return isHandbookType(type) ? HANDBOOKS[type] : undefined;
}

/** The handbook stored in schema.table (the field app's generic query names tables, not types). */
export function handbookByTable(schemaName: string, tableName: string): HandbookSchema | undefined {
  return HANDBOOK_TYPES.map((type) => HANDBOOKS[type]).find(
    (handbook) => handbook.table.schema === schemaName && handbook.table.name === tableName,
  );
}

/** Section id of a handbook's switch. */
export const handbookSection = (type: HandbookType): string => `handbooks.${type}`;

/** Permission path of a handbook (src/shared/permissions.ts HANDBOOKS_PREFIX). */
export const handbookPermissionPath = (type: HandbookType): string => `/handbooks/table/${type}`;
