import { BASE_MAP_KINDS } from '../baseMap';

/** A JSON schema as Fastify takes it (validation and the OpenAPI document). */
export type JsonSchema = Record<string, unknown>;

export const REPORT_FORMATS = ['csv', 'xlsx', 'pdf'] as const;

const int = (minimum: number, maximum: number, description: string): JsonSchema => ({ type: 'integer', minimum, maximum, description });
/** An http(s) address template with {placeholders}; the server fills and fetches it, the browser never sees it filled. */
const urlTemplate = (description: string): JsonSchema => ({
  type: 'string',
  minLength: 1,
  maxLength: 500,
  pattern: '^https?://[^\\s]+$',
  description,
});
/** Nested settings are saved partially: every property optional, none unknown. */
const object = (properties: Record<string, JsonSchema>, description: string): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  properties,
  description,
});

/**
 * Each settings field's type and range, read by the server's validation (the PUT body of a subsystem is any
 * subset of its fields) and by the console's form for its own check before sending.
 */
export const SETTINGS_FIELDS = {
  maxCenterDeviation: int(0, 100_000, 'Допустимое отклонение ТС от линии маршрута, м'),
  messageFrequency: int(1, 3600, 'Ожидаемый интервал навигационных сообщений от ТС, с'),
  requestRadius: int(1, 100_000, 'Радиус поиска ТС вокруг точки запроса, м'),
  egtsEquipmentDataMaxAge: int(1, 604_800, 'Диагностика ТС: данные оборудования (ЕГТС) старше этого считаются устаревшими, с'),
  baseMap: object(
    {
      kind: {
        type: 'string',
        enum: [...BASE_MAP_KINDS],
        description:
          'Источник подложки: none — нет, upstream — внешний сервер тайлов (через кэш сервера), mbtiles — файл MBTiles, dir — папка z/x/y.png',
      },
      location: {
        type: 'string',
        maxLength: 2000,
        description: 'Адрес сервера с {z}, {x}, {y} или абсолютный путь к файлу или папке на сервере',
      },
      attribution: {
        type: 'string',
        maxLength: 300,
        description: 'Подпись подложки в углу карты (обычно требует её лицензия), простой текст',
      },
    },
    'Подложка карты',
  ),
  dispatch: object(
    {
      lateSeconds: int(1, 7200, 'Диспетчерская: опоздание от расписания больше, с'),
      earlySeconds: int(1, 7200, 'Диспетчерская: опережение расписания больше, с'),
      bunchingPercent: int(1, 99, 'Диспетчерская: сгон — интервал до впереди идущего ТС меньше такой доли планового, %'),
      gapPercent: int(101, 1000, 'Диспетчерская: разрыв — интервал больше такой доли планового, %'),
      stopRadiusMeters: int(5, 500, 'Диспетчерская: ТС на остановке в пределах стольких метров от неё вдоль траектории, м'),
      offRouteSeconds: int(1, 3600, 'Диспетчерская: сход с маршрута — дальше допустимого отклонения дольше, с'),
      noSignalSeconds: int(10, 86_400, 'Диспетчерская: нет связи — ТС на линии молчит дольше, с'),
      exitStartSeconds: int(0, 7200, 'Диспетчерская: выход не начат — позже первого планового отправления на, с'),
      runMissedSeconds: int(
        0,
        14_400,
        'Диспетчерская: рейс не выполнен — ни одного прохождения остановки спустя столько после планового окончания, с',
      ),
    },
    'Диспетчерская: пороги живого расписания',
  ),
  video: object(
    {
      maxRequestMinutes: int(1, 1440, 'Наибольшая длительность одного запроса видео, мин'),
      archiveDays: int(1, 365, 'Срок хранения видеоархива, дней'),
      mediaServerUrl: urlTemplate(
        'Адрес живого потока медиасервера регистратора: {ip}, {port}, {serial}, {dvr}, {vehicle}, {camera}, {login}, {password}',
      ),
      mediaServerArchiveUrl: urlTemplate(
        'Адрес архива медиасервера (HLS-плейлист записи за период): те же подстановки и {from}, {to} (ISO 8601)',
      ),
      streamTtlSeconds: int(
        10,
        604_800,
        'Срок действия адреса видеопотока (подписанного токена), с; плеер запрашивает новый адрес, когда поток обрывается',
      ),
    },
    'Видео',
  ),
  report_formats: {
    type: 'array',
    items: { type: 'string', enum: [...REPORT_FORMATS] },
    minItems: 1,
    maxItems: REPORT_FORMATS.length,
    uniqueItems: true,
    description: 'Форматы выгрузки отчётов пассажиропотока',
  },
  reports: object({ maxPeriodDays: int(1, 366, 'Наибольший период отчёта, дней') }, 'Отчёты пассажиропотока'),
  passengers: object(
    {
      morningPeakFrom: int(0, 23, 'Утренний час пик: с (час)'),
      morningPeakTo: int(1, 24, 'Утренний час пик: до (час, не включая)'),
      eveningPeakFrom: int(0, 23, 'Вечерний час пик: с (час)'),
      eveningPeakTo: int(1, 24, 'Вечерний час пик: до (час, не включая)'),
      comfortLoadPercent: int(1, 200, 'Коэффициент наполнения «заполнен», % от вместимости'),
      crowdedLoadPercent: int(1, 200, 'Коэффициент наполнения «переполнен», % от вместимости'),
      transferMinutes: int(1, 360, 'Пересадка: следующая валидация карты на другом маршруте не позже, мин'),
      maxWalkMeters: int(50, 5000, 'Цепочка поездок: остановка выхода не дальше от следующей посадки, м'),
    },
    'Анализ пассажиропотока',
  ),
  journals: object({ retentionDays: int(1, 3650, 'Срок хранения журнала действий пользователей, дней') }, 'Журналы'),
  kkv: object({ enabled: { type: 'boolean', description: 'ККВ включён' } }, 'ККВ подсистемы контроля оплаты'),
  bc: object(
    {
      photoMaxMb: int(1, 50, 'Наибольший размер фотографии отчёта, МБ'),
      coordIntervalSeconds: int(5, 3600, 'Как часто полевое приложение передаёт положение контролёра во время задания, с'),
      positionMaxAgeMinutes: int(1, 1440, 'Положения контролёров старше этого не показываются на карте, мин'),
      lateReportHours: int(0, 72, 'Сколько часов после окончания дня задания ещё принимается отчёт, ч'),
      rateRedAt: int(1, 100, 'Рейтинг маршрутов красный от стольких нарушений на 100 проверенных'),
    },
    'Контроль оплаты',
  ),
  eis: object(
    {
      enabled: { type: 'boolean', description: 'Импорт из ЕИС включён' },
      sourceUrl: { type: 'string', maxLength: 2000, description: 'Адрес выгрузки ЕИС (http или https)' },
      schedule: {
        type: 'array',
        minItems: 1,
        maxItems: 48,
        uniqueItems: true,
        items: { type: 'string', pattern: '^([01]\\d|2[0-3]):[0-5]\\d$' },
        description: 'Время ежедневного импорта ЧЧ:ММ (часовой пояс сервера)',
      },
    },
    'Импорт из внешней информационной системы',
  ),
};

/** The range of an integer field by its dotted source (`video.maxRequestMinutes`), as the schemas above give it. */
export function fieldRange(source: string): { min: number; max: number } {
  const [key, ...path] = source.split('.');
  let schema: JsonSchema | undefined = (SETTINGS_FIELDS as Record<string, JsonSchema>)[key];
  for (const part of path) schema = (schema?.properties as Record<string, JsonSchema> | undefined)?.[part];
  if (typeof schema?.minimum !== 'number' || typeof schema.maximum !== 'number') throw new Error(`no integer settings field ${source}`);
  return { min: schema.minimum, max: schema.maximum };
}
