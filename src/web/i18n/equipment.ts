import { UNIT_KIND_LABELS } from '../../shared/equipment/units';
import { mediaStatusLabels } from '../../shared/mediaStatus';
import { valueLabels } from '../../shared/reports/valueNames';

/**
 * The on-board equipment screens' messages (remote configuration, work data, diagnostics), kept apart from
 * the main catalogues and mounted there under `equipment`.
 */
export const equipmentRu = {
  unitKinds: { ...UNIT_KIND_LABELS },
  unitStates: valueLabels('equipment.unitStates', 'ru'),
  commandStatuses: mediaStatusLabels('ru'),
  rolloutStates: { running: 'Идёт', paused: 'Приостановлено', cancelled: 'Отменено', finished: 'Завершено' },
  workData: {
    columns: {
      day: 'Дата', depot_number: 'Гаражный номер', state_number: 'Госномер', depot_name: 'Филиал', first_at: 'Первые данные', last_at: 'Последние данные',
      online_h: 'На линии, ч', km: 'Пробег, км', moving_h: 'В движении, ч', standing_h: 'Стоянка, ч', trips_done: 'Рейсов выполнено',
      trips_planned: 'Рейсов по плану', trips_share: 'Выполнение плана, %', deviations: 'Отклонений от маршрута', vehicle_id: 'ID ТС', row_key: 'Ключ',
    },
  },
  diagnostic: {
    state: 'Состояние', unit: 'Устройство',
    columns: {
      depot_number: 'Гаражный номер', state_number: 'Госномер', depot_name: 'Филиал', unit_kind: 'Устройство', unit_name: 'Наименование',
      state: 'Состояние', last_data_at: 'Последние данные', data_age_min: 'Давность данных, мин', faults: 'Коды неисправностей',
      fault_since: 'Неисправность с', vehicle_id: 'ID ТС', unit_key: 'Ключ',
    },
  },
  configurations: {
    title: 'Конфигурации МНТ', create: 'Новая конфигурация', name: 'Название', version: 'Версия', locked: 'Развёрнута', draft: 'Черновик',
    vehicles: 'ТС на версии', created: 'Создана', edit: 'Изменить', newVersion: 'Новая версия', delete: 'Удалить', save: 'Сохранить', cancel: 'Отмена',
    comment: 'Комментарий', parameters: 'Параметры', fleetShare: 'Доля парка по версиям конфигурации', lockedHint: 'Развёрнутая конфигурация не меняется: создайте новую версию',
    saved: 'Конфигурация сохранена', deleted: 'Конфигурация удалена', confirmDelete: 'Удалить конфигурацию «%{name}»?', empty: 'Конфигураций пока нет',
  },
  groups: {
    title: 'Группы ТС', create: 'Новая группа', name: 'Название', kind: 'Вид', kinds: { static: 'Статическая', dynamic: 'Динамическая' }, vehicles: 'ТС',
    lastRollout: 'Последнее развёртывание', open: 'Развёртывание', edit: 'Изменить', delete: 'Удалить', save: 'Сохранить', cancel: 'Отмена',
    chooseVehicles: 'Выбрать ТС', chosen: 'Выбрано ТС: %{count}', filter: 'Фильтр', agencies: 'Предприятия', depots: 'Филиалы', models: 'Модели',
    terminalTypes: 'Типы терминалов', configurations: 'Версии конфигурации', preview: 'В группу попадёт ТС: %{count}', saved: 'Группа сохранена',
    deleted: 'Группа удалена', confirmDelete: 'Удалить группу «%{name}»?', empty: 'Групп пока нет', dynamicHint: 'Состав вычисляется по фильтру при каждом развёртывании: новые ТС войдут в группу',
  },
  rollout: {
    title: 'Развёртывание конфигурации: группа «%{name}»', groupVehicles: 'ТС в группе: %{count}', start: 'Развернуть', configuration: 'Конфигурация',
    firstShare: 'Первая очередь, % группы', errorThreshold: 'Порог ошибок, %', window: 'Разрешённое окно', windowFrom: 'С (чч:мм)', windowTo: 'До (чч:мм)',
    anyTime: 'В любое время', started: 'Развёртывание начато: %{count} терминалов', history: 'Развёртывания', phase: 'Очередь %{phase}',
    pause: 'Приостановить', resume: 'Возобновить', cancelRollout: 'Отменить', confirmCancel: 'Отменить развёртывание №%{id}? Неотправленные команды завершатся ошибкой.',
    progress: 'Выполнено %{done} из %{total}', retrying: 'ожидают повтора: %{count}', commands: 'Команды терминалам', status: 'Статус', all: 'Все',
    vehicle: 'ТС', depot: 'Филиал', reason: 'Причина', attempts: 'Попыток', changed: 'Изменён', none: 'Развёртываний ещё не было', back: 'К группам',
    created: 'Создано', by: 'Кто', windowShown: 'Окно %{from}–%{to}',
  },
};

type Shape<T> = { [K in keyof T]: T[K] extends string ? string : Shape<T[K]> };

export const equipmentEn: Shape<typeof equipmentRu> = {
  unitKinds: { terminal: 'Terminal (MNT)', recorder: 'Video recorder', camera: 'Camera', passengerCounter: 'Passenger counter', validator: 'Validator', modem: 'GSM modem' },
  unitStates: valueLabels('equipment.unitStates', 'en'),
  commandStatuses: mediaStatusLabels('en'),
  rolloutStates: { running: 'Running', paused: 'Paused', cancelled: 'Cancelled', finished: 'Finished' },
  workData: {
    columns: {
      day: 'Date', depot_number: 'Depot number', state_number: 'Plate', depot_name: 'Branch', first_at: 'First data', last_at: 'Last data',
      online_h: 'On line, h', km: 'Mileage, km', moving_h: 'Moving, h', standing_h: 'Standing, h', trips_done: 'Trips made',
      trips_planned: 'Trips planned', trips_share: 'Plan done, %', deviations: 'Route deviations', vehicle_id: 'Vehicle ID', row_key: 'Key',
    },
  },
  diagnostic: {
    state: 'State', unit: 'Unit',
    columns: {
      depot_number: 'Depot number', state_number: 'Plate', depot_name: 'Branch', unit_kind: 'Unit', unit_name: 'Name',
      state: 'State', last_data_at: 'Last data', data_age_min: 'Data age, min', faults: 'Fault codes',
      fault_since: 'Fault since', vehicle_id: 'Vehicle ID', unit_key: 'Key',
    },
  },
  configurations: {
    title: 'MNT configurations', create: 'New configuration', name: 'Name', version: 'Version', locked: 'Rolled out', draft: 'Draft',
    vehicles: 'Vehicles on version', created: 'Created', edit: 'Edit', newVersion: 'New version', delete: 'Delete', save: 'Save', cancel: 'Cancel',
    comment: 'Comment', parameters: 'Parameters', fleetShare: 'Fleet share per configuration version', lockedHint: 'A rolled-out configuration does not change: create a new version',
    saved: 'Configuration saved', deleted: 'Configuration deleted', confirmDelete: 'Delete configuration "%{name}"?', empty: 'No configurations yet',
  },
  groups: {
    title: 'Vehicle groups', create: 'New group', name: 'Name', kind: 'Kind', kinds: { static: 'Static', dynamic: 'Dynamic' }, vehicles: 'Vehicles',
    lastRollout: 'Last rollout', open: 'Rollout', edit: 'Edit', delete: 'Delete', save: 'Save', cancel: 'Cancel',
    chooseVehicles: 'Choose vehicles', chosen: 'Vehicles chosen: %{count}', filter: 'Filter', agencies: 'Carriers', depots: 'Branches', models: 'Models',
    terminalTypes: 'Terminal types', configurations: 'Configuration versions', preview: 'The group will hold %{count} vehicles', saved: 'Group saved',
    deleted: 'Group deleted', confirmDelete: 'Delete group "%{name}"?', empty: 'No groups yet', dynamicHint: 'The members follow the filter at every rollout: new vehicles join',
  },
  rollout: {
    title: 'Configuration rollout: group "%{name}"', groupVehicles: 'Vehicles in the group: %{count}', start: 'Roll out', configuration: 'Configuration',
    firstShare: 'First phase, % of the group', errorThreshold: 'Error threshold, %', window: 'Allowed window', windowFrom: 'From (hh:mm)', windowTo: 'To (hh:mm)',
    anyTime: 'Any time', started: 'Rollout started: %{count} terminals', history: 'Rollouts', phase: 'Phase %{phase}',
    pause: 'Pause', resume: 'Resume', cancelRollout: 'Cancel', confirmCancel: 'Cancel rollout #%{id}? Commands not sent end in an error.',
    progress: 'Performed %{done} of %{total}', retrying: 'awaiting retry: %{count}', commands: 'Terminal commands', status: 'Status', all: 'All',
    vehicle: 'Vehicle', depot: 'Branch', reason: 'Reason', attempts: 'Attempts', changed: 'Changed', none: 'No rollouts yet', back: 'To groups',
    created: 'Created', by: 'By', windowShown: 'Window %{from}–%{to}',
  },
};
