import { mediaStatusLabels } from '../../shared/mediaStatus';
import type { Catalogue } from './catalogue';

export const videoRu = {
  statuses: mediaStatusLabels('ru'),
  columns: {
    id: '№', created_at: 'Создан', username: 'Пользователь', depot_number: 'Гаражный номер', state_number: 'Госномер',
    cameras: 'Камеры', period_from: 'Начало записи', period_to: 'Конец записи', status: 'Статус', progress: 'Загружено, %',
    reason: 'Причина', size_mb: 'Размер, МБ', user_id: 'ID пользователя', vehicle_id: 'ID ТС',
  },
  filters: { created: 'Создан', status: 'Статус', user: 'Пользователи' },
  player: {
    loading: 'Подключение', recording: 'Запись', playing: 'В эфире', retrying: 'Повтор %{attempt} из %{of}', failed: 'Нет сигнала', noSignal: 'Нет сигнала',
  },
  online: {
    search: 'Гаражный номер или госномер', depot: 'Филиал', route: 'Маршрут', type: 'Тип ТС', any: 'Все',
    chooseVehicle: 'Выберите транспортное средство слева', noVehicles: 'Нет ТС с видеорегистратором по этим условиям',
    layout: 'Сетка', online: 'на связи', offline: 'не на связи', fullSize: 'Во весь размер', back: 'К сетке камер',
    camera: 'Камера %{index}', page: 'Камеры %{from}–%{to} из %{count}', source: { demo: 'демо-источник', mediaServer: 'через медиасервер' },
    requestArchive: 'Запросить архив',
  },
  create: {
    title: 'Запрос видеоархива', vehicle: 'Транспортное средство', cameras: 'Камеры', period: 'Период записи',
    last5: 'Последние 5 минут', last15: 'Последние 15 минут', last60: 'Последний час', around: 'Вокруг времени',
    aroundTime: 'Время', aroundMinutes: '± минут', from: 'Начало', to: 'Конец', submit: 'Отправить запрос',
    created: 'Запрос № %{id} создан', camerasRequired: 'Выберите хотя бы одну камеру', maxMinutes: 'Не длиннее %{minutes} мин (настройки видео)',
  },
  actions: {
    create: 'Новый запрос', play: 'Смотреть', cancel: 'Отменить', retry: 'Повторить', delete: 'Удалить',
    confirmDelete: 'Удалить запрос № %{id}?', cancelled: 'Запрос отменён', retried: 'Запрос поставлен заново', deleted: 'Запрос удалён',
  },
  archive: {
    choose: 'Выберите выполненный запрос в таблице («Смотреть»)', request: 'Запрос № %{id}: ТС %{vehicle}', camera: 'Камера %{index}',
    download: 'Скачать', close: 'Закрыть', clock: 'Время записи', gap: 'разрыв записи',
  },
  monitoring: {
    days: 'Дней', search: 'Гаражный номер или госномер', onlyStopped: 'Только остановившиеся', lastContact: 'Последняя связь',
    stoppedAt: 'Запись остановлена %{at}', never: 'не было', held: 'есть запись', gap: 'нет записи', unknown: 'неизвестно (медиасервер)',
    stopped: 'Остановились: %{count}', recorders: 'Регистраторов: %{count}', vehicle: 'ТС', camera: 'Камера',
  },
};

export const videoEn: Catalogue<typeof videoRu> = {
  statuses: mediaStatusLabels('en'),
  columns: {
    id: 'No.', created_at: 'Created', username: 'User', depot_number: 'Garage number', state_number: 'Plate',
    cameras: 'Cameras', period_from: 'Recording from', period_to: 'Recording to', status: 'Status', progress: 'Downloaded, %',
    reason: 'Reason', size_mb: 'Size, MB', user_id: 'User ID', vehicle_id: 'Vehicle ID',
  },
  filters: { created: 'Created', status: 'Status', user: 'Users' },
  player: {
    loading: 'Connecting', recording: 'Recording', playing: 'Live', retrying: 'Retry %{attempt} of %{of}', failed: 'No signal', noSignal: 'No signal',
  },
  online: {
    search: 'Garage number or plate', depot: 'Branch', route: 'Route', type: 'Vehicle type', any: 'All',
    chooseVehicle: 'Choose a vehicle on the left', noVehicles: 'No vehicles with a recorder match',
    layout: 'Grid', online: 'online', offline: 'offline', fullSize: 'Full size', back: 'Back to the grid',
    camera: 'Camera %{index}', page: 'Cameras %{from}–%{to} of %{count}', source: { demo: 'demo source', mediaServer: 'via media server' },
    requestArchive: 'Request archive',
  },
  create: {
    title: 'Video archive request', vehicle: 'Vehicle', cameras: 'Cameras', period: 'Recording period',
    last5: 'Last 5 minutes', last15: 'Last 15 minutes', last60: 'Last hour', around: 'Around a time',
    aroundTime: 'Time', aroundMinutes: '± minutes', from: 'From', to: 'To', submit: 'Send request',
    created: 'Request %{id} created', camerasRequired: 'Choose at least one camera', maxMinutes: 'At most %{minutes} min (video settings)',
  },
  actions: {
    create: 'New request', play: 'Watch', cancel: 'Cancel', retry: 'Retry', delete: 'Delete',
    confirmDelete: 'Delete request %{id}?', cancelled: 'Request cancelled', retried: 'Request queued again', deleted: 'Request deleted',
  },
  archive: {
    choose: 'Choose a performed request in the table (Watch)', request: 'Request %{id}: vehicle %{vehicle}', camera: 'Camera %{index}',
    download: 'Download', close: 'Close', clock: 'Recorded at', gap: 'recording gap',
  },
  monitoring: {
    days: 'Days', search: 'Garage number or plate', onlyStopped: 'Stopped only', lastContact: 'Last contact',
    stoppedAt: 'Recording stopped %{at}', never: 'never', held: 'recorded', gap: 'no recording', unknown: 'unknown (media server)',
    stopped: 'Stopped: %{count}', recorders: 'Recorders: %{count}', vehicle: 'Vehicle', camera: 'Camera',
  },
};
