/**
 * The error catalogue of spec section 8: message codes the server sends in `{ messages: [...] }` and their
 * translations. The client shows a known code translated and an unknown message upper-cased.
 */
import { HANDBOOK_ERROR_CODES } from './handbooks/messages';

export const ERROR_CATALOGUE = {
  ...HANDBOOK_ERROR_CODES,
  login_not_found: { ru: 'Логин не найден', en: 'Login not found' },
  password_incorrect: { ru: 'Неверный пароль', en: 'Incorrect password' },
  user_blocked: { ru: 'Пользователь заблокирован', en: 'User is blocked' },
  login_and_password_required: { ru: 'Укажите логин и пароль', en: 'Enter login and password' },
  too_many_attempts: { ru: 'Слишком много неудачных попыток входа, повторите позже', en: 'Too many failed attempts, try again later' },
  internal_error: { ru: 'Ошибка сервера', en: 'Server error' },
  database_unavailable: { ru: 'Сервис временно недоступен', en: 'Service temporarily unavailable' },
  telemetry_not_stored: { ru: 'Координаты не сохранены, повторите отправку позже', en: 'Positions not stored, send them again later' },
  unauthorized: { ru: 'Пользователь не авторизован', en: 'User is not authorised' },
  forbidden: { ru: 'Доступ запрещен', en: 'Access denied' },
  bad_request: { ru: 'Неверный запрос', en: 'Bad request' },
  not_found: { ru: 'Не найдено', en: 'Not found' },
  payload_too_large: { ru: 'Слишком большой запрос', en: 'Request too large' },
  query_timeout: { ru: 'Запрос выполнялся слишком долго и был прерван', en: 'The request took too long and was stopped' },
  too_many_heavy_requests: {
    ru: 'Дождитесь окончания предыдущей выгрузки или отчёта',
    en: 'Wait for your previous export or report to finish',
  },
  username_required: { ru: 'Укажите имя пользователя', en: 'Username is required' },
  password_required: { ru: 'Укажите пароль', en: 'Password is required' },
  email_required: { ru: 'Укажите адрес электронной почты', en: 'Email is required' },
  username_exists: { ru: 'Пользователь с таким именем уже существует', en: 'Username already exists' },
  email_exists: { ru: 'Пользователь с таким адресом электронной почты уже существует', en: 'Email already exists' },
  systemrole_cant_be_remov: { ru: 'Системную роль нельзя удалить', en: 'A system role cannot be deleted' },
  systemrole_cant_be_changed: { ru: 'Системную роль нельзя изменить', en: 'A system role cannot be changed' },
  dvr_or_camera_not_found: {
    ru: 'На транспортном средстве не установлены камеры или видеорегистратор',
    en: 'No cameras or recorder installed on the vehicle',
  },
  user_not_found: { ru: 'Пользователь не найден', en: 'User not found' },
  email_cant_be_changed: { ru: 'Адрес электронной почты нельзя изменить', en: 'Email cannot be changed' },
  manual_disabled: { ru: 'Нельзя удалить вручную', en: 'Cannot be deleted manually' },
  no_vehicle_found: { ru: 'Не найдено транспортное средство, подходящее под критерии запроса', en: 'No vehicle fits the request criteria' },
  bad_password: {
    ru: 'Пароль должен содержать не менее 6 символов: буквы и цифры',
    en: 'Password must be at least 6 characters of letters and digits',
  },
  role_name_exists: { ru: 'Роль с таким названием уже существует', en: 'A role with this name already exists' },
  branch_name_used: { ru: 'Название филиала уже используется', en: 'Branch name already used' },
  too_long: { ru: 'Слишком длинное значение', en: 'The value is too long' },
  invalid_characters: { ru: 'Текст содержит недопустимые символы', en: 'The text contains characters that are not allowed' },
  range_not_satisfiable: { ru: 'Запрошенная часть файла лежит за его концом', en: 'The requested part lies beyond the end of the file' },
  upload_malformed: {
    ru: 'Файл пришёл не полностью или повреждён при передаче: отправьте его ещё раз',
    en: 'The upload arrived incomplete or malformed: send it again',
  },
  import_file_required: { ru: 'Выберите CSV-файл для импорта', en: 'Choose a CSV file to import' },
  unknown_permission: { ru: 'Неизвестное право доступа', en: 'Unknown permission' },
  bad_username: {
    ru: 'Имя пользователя: не более 64 символов, только буквы, цифры и знаки «.», «_», «-», «@»',
    en: 'Username: at most 64 characters, only letters, digits and the signs ".", "_", "-", "@"',
  },
  'username must be longer than or equal to 3 characters': {
    ru: 'Имя не должно быть короче трёх символов',
    en: 'Name must not be shorter than three characters',
  },
  validation_import_encoding: {
    ru: 'Файл не в кодировке UTF-8 или Windows-1251: сохраните его как «CSV UTF-8» и загрузите снова',
    en: 'The file is neither UTF-8 nor Windows-1251: save it as "CSV UTF-8" and upload it again',
  },
  validation_import_separator: {
    ru: 'Столбцы файла разделяются точкой с запятой (;), а в файле другой разделитель',
    en: 'Columns must be separated by semicolons (;); the file uses another separator',
  },
  validation_import_header: {
    ru: 'В первой строке нет обязательных столбцов: time, validator, ticket_type, card_token',
    en: 'The first line lacks the required columns: time, validator, ticket_type, card_token',
  },
  validation_import_broken: {
    ru: 'Файл повреждён: не удалось прочитать строки CSV',
    en: 'The file is broken: its CSV lines could not be read',
  },
  base_map_url: {
    ru: 'Подложка карты: адрес сервера тайлов должен начинаться с http:// или https:// и содержать {z}, {x} и {y}',
    en: 'Base map: the tile server address must start with http:// or https:// and contain {z}, {x} and {y}',
  },
  base_map_mbtiles: {
    ru: 'Подложка карты: файл MBTiles не найден на сервере или это не файл SQLite (нужен абсолютный путь)',
    en: 'Base map: the MBTiles file is not on the server or is not an SQLite file (an absolute path is needed)',
  },
  base_map_dir: {
    ru: 'Подложка карты: папка тайлов не найдена на сервере (нужен абсолютный путь к папке z/x/y.png)',
    en: 'Base map: the tile folder is not on the server (an absolute path to a z/x/y.png folder is needed)',
  },
  report_period_required: { ru: 'Укажите период отчёта', en: 'Choose the report period' },
  report_period_too_long: { ru: 'Период отчёта больше допустимого', en: 'The report period is too long' },
  worker_taken: { ru: 'Этот сотрудник уже связан с другим пользователем', en: 'This employee is linked to another user' },
  bc_task_not_yours: { ru: 'Задание назначено другому контролёру', en: 'The order is assigned to another controller' },
  bc_not_a_controller: { ru: 'Пользователь не связан с сотрудником-контролёром', en: 'The user is not linked to a controller employee' },
  bc_status_transition: { ru: 'Такой переход статуса задания невозможен', en: 'The order cannot move to this status' },
  bc_task_not_achieved: { ru: 'Срок задания истёк: задание не выполнено', en: 'The order date has passed: not achieved' },
  bc_task_closed: { ru: 'Задание закрыто: отчёт изменить нельзя', en: 'The order is closed: its report cannot change' },
  bc_sold_over_received: { ru: 'Продано билетов больше, чем получено', en: 'More tickets sold than received' },
  bc_seized_order: {
    ru: 'Изъятые билеты: четыре категории в установленном порядке',
    en: 'Seized tickets: the four categories in their fixed order',
  },
  bc_unknown_ticket: { ru: 'Неизвестный тип билета', en: 'Unknown ticket type' },
  bc_photo_required: { ru: 'Приложите фотографию', en: 'Attach a photo' },
  bc_photo_too_large: { ru: 'Фотография больше допустимого размера', en: 'The photo is larger than allowed' },
  bc_photo_not_image: { ru: 'Файл не является изображением (JPEG, PNG, WebP, GIF)', en: 'The file is not an image (JPEG, PNG, WebP, GIF)' },
  bc_worker_not_in_department: {
    ru: 'Сотрудник не относится к территориальному отделу задания',
    en: 'The employee is not of the order department',
  },
  bc_region_not_in_department: {
    ru: 'Район контроля не относится к территориальному отделу задания',
    en: 'The control region is not of the order department',
  },
  bc_idempotency_key_reused: { ru: 'Ключ повтора уже использован для другого запроса', en: 'The retry key was used for another request' },
  video_no_data: { ru: 'Регистратор не хранит записей за этот период', en: 'The recorder holds no recording for this period' },
  video_period_too_long: {
    ru: 'Период запроса видео больше допустимого (настройки видео)',
    en: 'The video request period is longer than allowed (video settings)',
  },
  video_period_in_future: { ru: 'Период запроса видео ещё не наступил', en: 'The video request period is in the future' },
  video_camera_not_found: { ru: 'У видеорегистратора ТС нет такой камеры', en: 'The vehicle recorder has no such camera' },
  video_not_ready: { ru: 'Видео по запросу ещё не готово', en: 'The requested video is not ready yet' },
  video_request_not_cancellable: { ru: 'Запрос уже завершён: отменить нельзя', en: 'The request has finished and cannot be cancelled' },
  video_request_not_retryable: {
    ru: 'Повторить можно только запрос, завершившийся ошибкой',
    en: 'Only a request that ended in an error can be retried',
  },
  mnt_parameter_required: { ru: 'Не задан обязательный параметр конфигурации', en: 'A required configuration parameter is missing' },
  mnt_parameter_type: { ru: 'Неверный тип значения параметра конфигурации', en: 'Wrong type of a configuration parameter value' },
  mnt_parameter_range: {
    ru: 'Значение параметра конфигурации вне допустимого диапазона',
    en: 'A configuration parameter value is out of range',
  },
  mnt_parameter_unknown: { ru: 'Неизвестный параметр конфигурации', en: 'Unknown configuration parameter' },
  mnt_configuration_locked: {
    ru: 'Конфигурация уже развёрнута и не может быть изменена: создайте новую версию',
    en: 'The configuration has been rolled out and cannot be changed: create a new version',
  },
  mnt_configuration_exists: { ru: 'Конфигурация с таким названием уже существует', en: 'A configuration with this name already exists' },
  mnt_group_exists: { ru: 'Группа с таким названием уже существует', en: 'A group with this name already exists' },
  mnt_group_vehicles_unknown: { ru: 'В справочнике нет ТС с такими номерами', en: 'The vehicles handbook has no vehicles with these ids' },
  mnt_group_empty: { ru: 'В группе нет ТС с бортовым терминалом', en: 'The group has no vehicle with an on-board terminal' },
  mnt_group_in_use: { ru: 'По группе идёт развёртывание: удалить нельзя', en: 'A rollout to the group is under way: it cannot be deleted' },
  mnt_rollout_active: {
    ru: 'По группе уже идёт развёртывание: дождитесь окончания или отмените его',
    en: 'A rollout to the group is already under way: wait for it or cancel it',
  },
  mnt_rollout_state: {
    ru: 'Действие недоступно в текущем состоянии развёртывания',
    en: "The action is not available in the rollout's current state",
  },
  mnt_window_incomplete: { ru: 'Укажите и начало, и конец разрешённого окна', en: 'Give both the start and the end of the allowed window' },
  pdm_tree_not_found: { ru: 'Дерево регистратора не найдено', en: 'Data-logger tree not found' },
  pdm_node_not_found: { ru: 'Узел дерева не найден', en: 'Tree node not found' },
  pdm_tree_assigned: {
    ru: 'Дерево назначено транспортным средствам: сначала снимите назначение',
    en: 'The tree is assigned to vehicles: unassign it first',
  },
  pdm_node_assigned: {
    ru: 'Узел получает данные ТС, которым назначено дерево: удалить нельзя',
    en: 'The node receives data of vehicles the tree is assigned to: it cannot be deleted',
  },
  pdm_channel_taken: { ru: 'Этот канал уже занят другим датчиком дерева', en: 'Another sensor of the tree already uses this channel' },
  pdm_move_into_itself: { ru: 'Узел нельзя переместить внутрь самого себя', en: 'A node cannot be moved into itself' },
  pdm_move_other_tree: { ru: 'Узлы можно перемещать только внутри одного дерева', en: 'Nodes can only be moved within one tree' },
  pdm_range_invalid: {
    ru: 'Нормальный диапазон должен лежать внутри пределов неисправности (мин ≤ макс)',
    en: 'The normal range must lie within the fault limits (min ≤ max)',
  },
  pdm_channel_incomplete: {
    ru: 'Укажите и тип канала, и его номер (или ни того, ни другого)',
    en: 'Give both the channel kind and its number (or neither)',
  },
  pdm_tree_too_large: { ru: 'Слишком много узлов в дереве', en: 'Too many nodes in the tree' },
  pdm_import_bad_file: { ru: 'Файл не читается как CSV с заголовком', en: 'The file does not read as CSV with a header' },
  gtfs_rt_dispatch_off: {
    ru: 'Прогнозы GTFS-Realtime (TripUpdates) не формируются: модуль «Диспетчерская» (живое расписание) выключен',
    en: 'GTFS-Realtime TripUpdates are not produced: the dispatch module (the live timetable) is switched off',
  },
  gtfs_import_running: { ru: 'Импорт GTFS уже идёт: дождитесь его окончания', en: 'A GTFS import is already running: wait until it ends' },
  gtfs_import_not_zip: { ru: 'Загрузите архив GTFS (zip)', en: 'Upload a GTFS feed (zip)' },
  gtfs_import_not_running: { ru: 'Этот импорт GTFS уже завершён', en: 'This GTFS import has already ended' },
  gtfs_import_failed: {
    ru: 'Импорт GTFS прерван ошибкой сервера: справочники не изменены',
    en: 'The GTFS import stopped on a server error: the handbooks are unchanged',
  },
  gtfs_import_interrupted: {
    ru: 'Импорт GTFS прерван перезапуском сервера: справочники не изменены',
    en: 'The GTFS import was interrupted by a server restart: the handbooks are unchanged',
  },
  gtfs_import_upload_failed: { ru: 'Файл GTFS не загружен полностью', en: 'The GTFS file was not uploaded completely' },
  pdm_import_mapping: { ru: 'Сопоставьте столбцы файла со всеми обязательными полями', en: 'Map the file columns to every required field' },
  pdm_import_not_found: { ru: 'Импорт не найден', en: 'Import not found' },
  pdm_series_too_many: { ru: 'Слишком много рядов на графике', en: 'Too many series on the chart' },
  dispatch_exception_gone: {
    ru: 'Исключение уже снято или изменилось: обновите доску',
    en: 'The exception has cleared or changed: refresh the board',
  },
  dispatch_exception_acknowledged: { ru: 'Исключение уже квитировано', en: 'The exception has already been acknowledged' },
  dispatch_exception_since: { ru: 'Неверное время исключения', en: 'Bad exception time' },
  dispatch_stop_not_found: { ru: 'Остановка не найдена', en: 'Stop not found' },
  dispatch_route_not_found: { ru: 'Маршрут не найден', en: 'Route not found' },
  dispatch_bad_date: { ru: 'Неверная дата', en: 'Bad date' },
  dispatch_route_or_depot: { ru: 'Укажите маршрут или парк (одно из двух)', en: 'Give a route or a depot (one of the two)' },
  dispatch_route_or_vehicle: { ru: 'Укажите маршрут или ТС (одно из двух)', en: 'Give a route or a vehicle (one of the two)' },
  dispatch_run_not_found: { ru: 'Рейс не найден в расписании сегодняшнего дня', en: "The run is not in today's timetable" },
  dispatch_change_reason: { ru: 'Укажите причину изменения', en: 'Give the reason for the change' },
  dispatch_shift_minutes: {
    ru: 'Сдвиг начала рейса — целое число минут от −180 до 180, не ноль',
    en: 'Move the start by a whole number of minutes from −180 to 180, not zero',
  },
  dispatch_change_exists: { ru: 'Такое изменение уже действует на этом рейсе', en: 'This change is already in force on the run' },
  dispatch_change_not_found: { ru: 'Изменение движения не найдено', en: 'Service change not found' },
  dispatch_change_revoked: { ru: 'Изменение уже отменено', en: 'The change has already been revoked' },
  dispatch_change_bad_time: {
    ru: 'Неверное время периода: нужны дата и время',
    en: 'Bad time in the period: a date and a time are needed',
  },
  dispatch_change_period: {
    ru: 'Период: окончание позже начала, не дольше суток и ещё не прошло',
    en: 'The period ends after it starts, lasts at most a day and is not over yet',
  },
  dispatch_stop_not_on_route: { ru: 'Остановки нет на рейсах маршрута сегодня', en: "The stop is not on the route's runs today" },
  dispatch_detour_stops: {
    ru: 'Объезд: конечная остановка должна идти после начальной на рейсах маршрута',
    en: "The detour's last stop must come after its first on the route's runs",
  },
  dispatch_detour_path: { ru: 'Нарисуйте путь объезда: не меньше двух точек', en: "Draw the detour's path: two points at least" },
  dispatch_message_text: { ru: 'Введите текст сообщения', en: 'Enter the message text' },
  dispatch_message_target: { ru: 'Укажите получателя: ТС, маршрут или парк', en: 'Choose the recipient: a vehicle, a route or a depot' },
  dispatch_message_ttl: { ru: 'Срок доставки — от 1 до 1440 минут', en: 'The delivery time limit is 1 to 1440 minutes' },
  dispatch_message_no_recipients: { ru: 'Нет ТС на линии для этого получателя', en: 'No vehicle on the line for this recipient' },
  dispatch_depot_not_found: { ru: 'Парк не найден', en: 'Depot not found' },
  dispatch_vehicle_not_found: { ru: 'ТС не найдено', en: 'Vehicle not found' },
  dispatch_canned_exists: { ru: 'Такой шаблон уже есть', en: 'This canned text already exists' },
  dispatch_canned_not_found: { ru: 'Шаблон не найден', en: 'Canned text not found' },
  dispatch_alert_header: { ru: 'Введите заголовок оповещения', en: 'Enter the alert header' },
  dispatch_alert_bad_time: {
    ru: 'Неверное время периода оповещения: нужны дата и время',
    en: "Bad time in the alert's period: a date and a time are needed",
  },
  dispatch_alert_period: {
    ru: 'Конец периода оповещения должен быть позже начала',
    en: "The alert's period must end after it starts",
  },
  dispatch_alert_entities: {
    ru: 'Укажите маршруты или остановки оповещения либо всю сеть (одно из двух)',
    en: 'Choose the routes or stops of the alert, or the whole network (one of the two)',
  },
  dispatch_alert_unknown_route: { ru: 'В оповещении указан несуществующий маршрут', en: 'The alert names a route that does not exist' },
  dispatch_alert_unknown_stop: { ru: 'В оповещении указана несуществующая остановка', en: 'The alert names a stop that does not exist' },
  dispatch_alert_not_found: { ru: 'Оповещение не найдено', en: 'Alert not found' },
  dispatch_alert_published: {
    ru: 'Оповещение уже опубликовано: его можно только завершить',
    en: 'The alert is already published: it can only be ended',
  },
  dispatch_alert_ended: { ru: 'Оповещение уже завершено', en: 'The alert has already ended' },
  dispatch_alert_draft: {
    ru: 'Оповещение ещё не опубликовано: черновик удаляют, а не завершают',
    en: 'The alert is not published yet: a draft is deleted, not ended',
  },
  dispatch_alert_period_over: {
    ru: 'Период оповещения уже прошёл: исправьте его перед публикацией',
    en: "The alert's period is already over: correct it before publishing",
  },
  dispatch_handover_same_vehicle: { ru: 'Выход уже работает это ТС', en: 'This vehicle already works the exit' },
  dispatch_vehicle_busy: {
    ru: 'ТС работает другой выход: подтвердите передачу (тот выход останется без этого ТС)',
    en: 'The vehicle works another exit: confirm the handover (that exit is left without it)',
  },
  dispatch_added_run_template: {
    ru: 'У маршрута нет рейсов этого направления в сегодняшнем расписании: не с чего взять время хода',
    en: "The route has no run in this direction in today's timetable to take the running times from",
  },
  dispatch_added_run_start: {
    ru: 'Добавленный рейс начинается не позже чем через 12 часов (время, прошедшее более 2 часов назад, — следующей ночью)',
    en: 'An added run starts at most 12 hours ahead (a time over 2 hours past is the night after)',
  },
  dispatch_message_graph: { ru: 'Укажите маршрут и номер выхода', en: 'Give the route and the exit number' },
  report_too_large: { ru: 'Слишком много строк в отчёте: сузьте фильтры', en: 'The report has too many rows: narrow the filters' },
} as const satisfies Record<string, { ru: string; en: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
export type Locale = 'ru' | 'en';

/** Transport-level messages of section 8 (by HTTP status), and the login fallbacks. */
export const TRANSPORT_MESSAGES = {
  error: { ru: 'Ошибка', en: 'Error' },
  accessDenied: { ru: 'Отказано в доступе', en: 'Access denied' },
  notFound: { ru: 'Не найдено', en: 'Not found' },
  badGateway: { ru: 'Внутренняя ошибка сервера', en: 'Internal server error' },
  unavailable: { ru: 'Сервис временно недоступен', en: 'Service temporarily unavailable' },
  serverUnreachable: { ru: 'Сервер недоступен', en: 'Server unavailable' },
} as const;

export function isErrorCode(message: string): message is ErrorCode {
  return Object.prototype.hasOwnProperty.call(ERROR_CATALOGUE, message);
}

/** A server message as the user reads it: translated when known, upper-cased when not. */
export function translateMessage(message: string, locale: Locale = 'ru'): string {
  return isErrorCode(message) ? ERROR_CATALOGUE[message][locale] : message.toUpperCase();
}
