import { serverVariables } from '../config';
import { busVariables } from '../bus/config';
import { commandLineVariables } from '../cli/config';
import { dispatchVariables } from '../dispatch/config';
import { equipmentVariables } from '../equipment/config';
import { geocoderVariables } from '../geocoder/config';
import { geoVariables } from '../geo/config';
import { gtfsVariables } from '../gtfs/config';
import { mapVariables } from '../map/config';
import { pdmVariables } from '../pdm/config';
import { operatorDayVariables } from '../platform/operatorDay';
import { simulatorVariables } from '../simulator/config';
import { telemetryVariables } from '../telemetry/config';
import { tilesVariables } from '../tiles/config';
import { videoVariables } from '../video/config';
import { clusterVariables } from './cluster';
import { startVariables } from './start';
import type { VariableGroup } from './variables';

/**
 * Every group of variables, in the order of docs/configuration.md: a variable outside these is read nowhere
 * (tests/configuration.test.ts checks the sources' reads against them). A new area's group goes here.
 */
export const ALL_VARIABLE_GROUPS: readonly VariableGroup[] = [
  serverVariables,
  busVariables,
  startVariables,
  operatorDayVariables,
  clusterVariables,
  telemetryVariables,
  equipmentVariables,
  dispatchVariables,
  mapVariables,
  geoVariables,
  tilesVariables,
  simulatorVariables,
  gtfsVariables,
  pdmVariables,
  videoVariables,
  geocoderVariables,
  commandLineVariables,
];
