import { controlEn, controlRu } from './dispatchControl';

/** The dispatch screens' labels (ru.ts and en.ts take them under `dispatch`). */
export const dispatchRu = {
  kinds: {
    late: 'Опоздание', early: 'Опережение', bunching: 'Сгон', gap: 'Разрыв', off_route: 'Сход с маршрута', no_signal: 'Нет связи',
    exit_not_started: 'Выход не начат', run_not_performed: 'Рейс не выполнен', driver_message: 'Сообщение водителя',
  },
  adherence: { late: 'Опаздывает', on_time: 'По расписанию', early: 'Опережает', none: 'Без рейса' },
  statuses: { performed: 'Выполнен', partial: 'Не завершён', in_progress: 'Выполняется', not_performed: 'Не выполнен', planned: 'Запланирован', cancelled: 'Отменён' },
  vehicleStatus: { in_service: 'На рейсе', layover: 'Отстой', off: 'Без рейса' },
  direction: { 0: 'Прямое', 1: 'Обратное' },
  filters: { depot: 'Парк', route: 'Маршрут', routes: 'Маршруты', kind: 'Вид', all: 'Все', date: 'Дата', scope: 'Выходы', byRoute: 'Маршрута', byDepot: 'Парка' },
  columns: {
    kind: 'Вид', vehicle: 'ТС', route: 'Маршрут', exit: 'Выход / рейс', driver: 'Водитель', deviation: 'Отклонение', since: 'С', ack: 'Квитировано',
    actions: '', shift: 'Смена', race: 'Рейс', plannedStart: 'Начало план', actualStart: 'Начало факт', plannedEnd: 'Конец план', actualEnd: 'Конец факт',
    startDeviation: 'Откл. начала', endDeviation: 'Откл. конца', stops: 'Остановок пройдено', status: 'Выполнение',
  },
  board: {
    empty: 'Исключений нет', total: 'Всего: %{count}', open: 'не квитировано: %{count}', onMap: 'На карте', onLine: 'На графике',
    acknowledge: 'Квитировать', ackTitle: 'Квитирование: %{kind}, ТС %{vehicle}', comment: 'Комментарий', save: 'Квитировать', cancel: 'Отмена',
    ackBy: '%{user}, %{at}', updated: 'Обновлено %{at}',
  },
  lines: {
    choose: 'Выберите один или несколько маршрутов', noRuns: 'Сегодня у маршрута нет рейсов', vehicles: 'ТС на линии: %{count}',
    headway: 'Интервал %{value}',
  },
  card: {
    title: 'ТС %{number}', run: 'Выход %{graph}, смена %{smena}, рейс %{race}', deviation: 'Отклонение', headway: 'Интервал',
    scheduledHeadway: 'по расписанию %{value}', nextStops: 'Ближайшие остановки', stop: 'Остановка', scheduled: 'План', predicted: 'Прогноз',
    noRun: 'ТС не на рейсе', driver: 'Водитель', route: 'Маршрут', status: 'Состояние', close: 'Закрыть', lastFix: 'Последняя отметка',
  },
  exits: {
    choose: 'Выберите маршрут или парк', empty: 'Рейсов нет', totals: 'Рейсов: %{planned}, выполнено: %{performed}, не завершено: %{partial}, не выполнено: %{notPerformed}',
  },
  arrivals: { title: 'Прибытие', none: 'В ближайший час прибытий нет', inMinutes: 'через %{minutes} мин', now: 'прибывает' },
  map: { colourMode: 'Цвет ТС', byClass: 'По классу', byAdherence: 'По расписанию', legend: 'Соблюдение расписания' },
  control: controlRu,
  loadFailed: 'Не удалось загрузить данные',
  minutes: '%{value} мин',
};

export const dispatchEn: typeof dispatchRu = {
  kinds: {
    late: 'Late', early: 'Early', bunching: 'Bunching', gap: 'Gap', off_route: 'Off route', no_signal: 'No signal',
    exit_not_started: 'Exit not started', run_not_performed: 'Run not performed', driver_message: 'Driver\'s message',
  },
  adherence: { late: 'Late', on_time: 'On time', early: 'Early', none: 'No run' },
  statuses: { performed: 'Performed', partial: 'Not completed', in_progress: 'Under way', not_performed: 'Not performed', planned: 'Planned', cancelled: 'Cancelled' },
  vehicleStatus: { in_service: 'On a run', layover: 'Layover', off: 'No run' },
  direction: { 0: 'Outbound', 1: 'Inbound' },
  filters: { depot: 'Depot', route: 'Route', routes: 'Routes', kind: 'Kind', all: 'All', date: 'Date', scope: 'Exits of', byRoute: 'Route', byDepot: 'Depot' },
  columns: {
    kind: 'Kind', vehicle: 'Vehicle', route: 'Route', exit: 'Exit / run', driver: 'Driver', deviation: 'Deviation', since: 'Since', ack: 'Acknowledged',
    actions: '', shift: 'Shift', race: 'Run', plannedStart: 'Planned start', actualStart: 'Actual start', plannedEnd: 'Planned end', actualEnd: 'Actual end',
    startDeviation: 'Start dev.', endDeviation: 'End dev.', stops: 'Stops passed', status: 'Performance',
  },
  board: {
    empty: 'No exceptions', total: 'Total: %{count}', open: 'not acknowledged: %{count}', onMap: 'On the map', onLine: 'On the line',
    acknowledge: 'Acknowledge', ackTitle: 'Acknowledge: %{kind}, vehicle %{vehicle}', comment: 'Comment', save: 'Acknowledge', cancel: 'Cancel',
    ackBy: '%{user}, %{at}', updated: 'Updated %{at}',
  },
  lines: {
    choose: 'Choose one or more routes', noRuns: 'The route has no runs today', vehicles: 'Vehicles on the line: %{count}',
    headway: 'Headway %{value}',
  },
  card: {
    title: 'Vehicle %{number}', run: 'Exit %{graph}, shift %{smena}, run %{race}', deviation: 'Deviation', headway: 'Headway',
    scheduledHeadway: 'scheduled %{value}', nextStops: 'Next stops', stop: 'Stop', scheduled: 'Scheduled', predicted: 'Predicted',
    noRun: 'The vehicle is not on a run', driver: 'Driver', route: 'Route', status: 'State', close: 'Close', lastFix: 'Last fix',
  },
  exits: {
    choose: 'Choose a route or a depot', empty: 'No runs', totals: 'Runs: %{planned}, performed: %{performed}, not completed: %{partial}, not performed: %{notPerformed}',
  },
  arrivals: { title: 'Arrivals', none: 'No arrivals within the hour', inMinutes: 'in %{minutes} min', now: 'arriving' },
  map: { colourMode: 'Vehicle colour', byClass: 'By class', byAdherence: 'By timetable', legend: 'Timetable adherence' },
  control: controlEn,
  loadFailed: 'The data could not be loaded',
  minutes: '%{value} min',
};
