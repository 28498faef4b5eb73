import type { Catalogue } from './catalogue';

export const notificationsRu = {
  bell: 'Уведомления',
  title: 'Уведомления',
  markAll: 'Отметить все как просмотренные',
  empty: 'Уведомлений нет',
  failed: 'Не удалось загрузить уведомления',
  retry: 'Повторить',
  loading: 'Загрузка',
  type: 'Тип',
  allTypes: 'Все',
  isNew: 'Новое',
  types: {
    equipment_fault: 'Неисправность оборудования',
    adas_incident: 'Инцидент ИСПВ',
    video_ready: 'Видео готово',
    dispatch_exception: 'Диспетчерская',
    dispatch_driver_message: 'Сообщение водителя',
    system: 'Системное сообщение',
  },
};

export const notificationsEn: Catalogue<typeof notificationsRu> = {
  bell: 'Notifications',
  title: 'Notifications',
  markAll: 'Mark all as viewed',
  empty: 'No notifications',
  failed: 'Could not load notifications',
  retry: 'Retry',
  loading: 'Loading',
  type: 'Type',
  allTypes: 'All',
  isNew: 'New',
  types: {
    equipment_fault: 'Equipment fault',
    adas_incident: 'ISPV incident',
    video_ready: 'Video ready',
    dispatch_exception: 'Dispatch',
    dispatch_driver_message: "Driver's message",
    system: 'System message',
  },
};
