import { useCurrentUser } from '../../web/stores/sessionStore';
import { FieldMapScreen } from '../map/FieldMapScreen';
import type { FieldMapMode } from '../map/fieldMapLayers';
import { useWorkerTask } from './workerTask';

/**
 * The ticket-control map modes (field-app spec 2.1, 2.5): the field map in department-control mode (the control
 * process of the controller's department, or all, with the controllers' positions) and in current-region mode
 * (the selected order's department with the order's routes; nothing without an order).
 */
function BcMapScreen({ mode }: { mode: Exclude<FieldMapMode, 'map'> }) {
  const user = useCurrentUser();
  const order = useWorkerTask(user?.id);
  return <FieldMapScreen mode={mode} order={order} />;
}

export function DepartmentControlMap() {
  return <BcMapScreen mode="departmentControl" />;
}

export function CurrentRegionMap() {
  return <BcMapScreen mode="currentRegion" />;
}
