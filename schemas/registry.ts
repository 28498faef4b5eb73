// Written by scripts/build/handbookRegistry.mjs from the files in schemas/: do not edit.
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

/** Every schema file by its handbook type, in menu order. */
export const SCHEMA_FILES = {
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
