import { canAccess, type AccessSubject } from '../../shared/permissions';
import { isEnabled, type ModuleId, type Switches } from '../../shared/modules';

/**
 * Kinds of bell notification and who may see them: a notification is shown only to users allowed to read
 * the screen it points to, and only while that screen's module is on. Kept as a table in code rather than a
 * column per row, so deciding visibility is one `type = any(...)` however many rows and users there are.
 */
export const NOTIFICATION_TYPES = {
  equipment_fault: { label: 'Неисправность оборудования', path: '/vehicle-diagnostic', module: 'vehicleDiagnostic' },
  adas_incident: { label: 'Инцидент ИСПВ', path: '/adas/incidents-detailing', module: 'adas' },
  video_ready: { label: 'Видео готово', path: '/video/myrequests', module: 'video' },
  dispatch_exception: { label: 'Диспетчерская', path: '/dispatch/board', module: 'dispatch' },
  dispatch_driver_message: { label: 'Сообщение водителя', path: '/dispatch/messages', module: 'dispatch' },
  system: { label: 'Системное сообщение', path: undefined, module: undefined },
} as const satisfies Record<string, { label: string; path: string | undefined; module: ModuleId | undefined }>;

export type NotificationType = keyof typeof NOTIFICATION_TYPES;
export const NOTIFICATION_TYPE_IDS = Object.keys(NOTIFICATION_TYPES) as NotificationType[];

export const SEVERITIES = ['info', 'warning', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** The types a user may see now. */
export function visibleTypes(subject: AccessSubject, switches: Switches): NotificationType[] {
  return NOTIFICATION_TYPE_IDS.filter((type) => {
    const { path, module } = NOTIFICATION_TYPES[type];
    return (!module || isEnabled(switches, module)) && (!path || canAccess(subject, path, 'read'));
  });
}
