/**
 * Names of the media/command status codes of console.md section 3: one table for archive requests
 * (src/shared/video/statuses.ts) and terminal commands (src/shared/equipment/commandStatus.ts), so a code reads
 * the same on every screen, in the journals and in exports.
 */
export const MEDIA_STATUS_LABELS: Readonly<Record<number, { ru: string; en: string }>> = {
  1: { ru: 'Создан', en: 'Created' },
  2: { ru: 'В очереди', en: 'Queued' },
  3: { ru: 'Ожидание ТС', en: 'Waiting for the vehicle' },
  4: { ru: 'Загрузка', en: 'Downloading' },
  5: { ru: 'Подключение', en: 'Connecting' },
  6: { ru: 'Выполнен', en: 'Performed' },
  7: { ru: 'Просмотрен', en: 'Viewed' },
  8: { ru: 'Удаление', en: 'Deleting' },
  9: { ru: 'Удалён', en: 'Deleted' },
  10: { ru: 'Ошибка авторизации', en: 'Authentication error' },
  11: { ru: 'Ошибка конфигурации', en: 'Configuration error' },
  12: { ru: 'Нет данных', en: 'No data' },
  13: { ru: 'Ошибка загрузки', en: 'Download error' },
  14: { ru: 'Ошибка', en: 'Error' },
};

/** The table in one language, by code: what the catalogues mount for the video and equipment screens. */
export function mediaStatusLabels(language: 'ru' | 'en'): Record<string, string> {
  return Object.fromEntries(Object.entries(MEDIA_STATUS_LABELS).map(([code, label]) => [code, label[language]]));
}
