import { HANDBOOK_SECTIONS_OFF, HANDBOOK_SECTIONS_ON, type HandbookType } from '../src/shared/modules';
import type { HandbookSchema } from '../src/shared/handbooks/types';
import agency from './agency';
import park from './park';
import driver from './driver';
import mnttype from './mnttype';
import dvr from './dvr';
import cameratype from './cameratype';
import vehicletype from './vehicletype';
import capacitytype from './capacitytype';
import vehicles from './vehicles';
import stops from './stops';
import marshtype from './marshtype';
import routes from './routes';
import routevariants from './routevariants';
import trips from './trips';
import tripstops from './tripstops';
import holidays from './holidays';
import raspvariants from './raspvariants';
import rasptimes from './rasptimes';
import vehicletask from './vehicletask';
import replacevehicle from './replacevehicle';
import ticketviews from './ticketviews';
import tickettypes from './tickettypes';
import routestop from './routestop';
import rasptimelink from './rasptimelink';
import incidenttypes from './incidenttypes';
import dvrtype from './dvrtype';
import mnt from './mnt';
import passpotok from './passpotok';
import gsm from './gsm';
import camera from './camera';
import validator from './validator';
import district from './district';
import department from './department';
import controlregion from './controlregion';
import equipmentmodel from './equipmentmodel';
import controllerequipment from './controllerequipment';
import controllercard from './controllercard';
import graphictype from './graphictype';

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
