import { valueLabels } from '../../shared/reports/valueNames';

/** The dispatcher's reports' labels (ru.ts and en.ts take them under `reports.dispatch`; src/shared/reports/dispatch.ts). */
export const dispatchReportsRu = {
  group: 'Группировка',
  groups: { route: 'По маршрутам', stop: 'По остановкам', hour: 'По часам' },
  directions: valueLabels('reports.dispatch.directions', 'ru'),
  horizons: valueLabels('reports.dispatch.horizons', 'ru'),
  methods: valueLabels('reports.dispatch.methods', 'ru'),
  onTimeChart: 'Доля отправлений вовремя по часам, %',
  completionChart: 'Выполнено рейсов по дням, %',
  headwayChart: 'Интервалы в пределах ±50 % планового по часам, %',
  predictionChart: 'Прогнозы в допуске по горизонту, %',
  columns: {
    key: 'Код', name: 'Маршрут, остановка или час', departures: 'Отправлений', early: 'Раньше расписания', on_time: 'Вовремя',
    late: 'С опозданием', on_time_share: 'Вовремя, %', early_share: 'Раньше, %', late_share: 'С опозданием, %',
    median_deviation: 'Медиана отклонения, мин', day: 'Дата', route_id: 'ID маршрута', route_name: 'Маршрут', planned: 'Рейсов по плану',
    performed: 'Выполнено', partial: 'Выполнено частично', not_performed: 'Не выполнено', pending: 'Ещё не завершены',
    performed_share: 'Выполнено, %', partial_share: 'Частично, %', not_performed_share: 'Не выполнено, %', direction: 'Направление',
    hour: 'Час', headways: 'Интервалов', scheduled_headway: 'Плановый интервал, мин', actual_headway: 'Фактический интервал, мин',
    cv: 'Коэффициент вариации', los: 'Уровень обслуживания', within_share: 'В пределах ±50 %, %', bunching: 'Сгонов', gaps: 'Разрывов',
    horizon: 'Горизонт прогноза', method: 'Прогноз', samples: 'Прогнозов', median_error: 'Медиана абсолютной ошибки, с',
    mean_error: 'Средняя ошибка, с', inside: 'В допуске', inside_share: 'В допуске, %',
  },
};

export const dispatchReportsEn: typeof dispatchReportsRu = {
  group: 'Grouping',
  groups: { route: 'By route', stop: 'By stop', hour: 'By hour' },
  directions: valueLabels('reports.dispatch.directions', 'en'),
  horizons: valueLabels('reports.dispatch.horizons', 'en'),
  methods: valueLabels('reports.dispatch.methods', 'en'),
  onTimeChart: 'Departures on time by hour, %',
  completionChart: 'Runs performed by day, %',
  headwayChart: 'Headways within ±50 % of scheduled by hour, %',
  predictionChart: 'Predictions within bounds by horizon, %',
  columns: {
    key: 'Code', name: 'Route, stop or hour', departures: 'Departures', early: 'Early', on_time: 'On time',
    late: 'Late', on_time_share: 'On time, %', early_share: 'Early, %', late_share: 'Late, %',
    median_deviation: 'Median deviation, min', day: 'Date', route_id: 'Route ID', route_name: 'Route', planned: 'Runs planned',
    performed: 'Performed', partial: 'Partially performed', not_performed: 'Not performed', pending: 'Not yet finished',
    performed_share: 'Performed, %', partial_share: 'Partially, %', not_performed_share: 'Not performed, %', direction: 'Direction',
    hour: 'Hour', headways: 'Headways', scheduled_headway: 'Scheduled headway, min', actual_headway: 'Actual headway, min',
    cv: 'Coefficient of variation', los: 'Level of service', within_share: 'Within ±50 %, %', bunching: 'Bunching', gaps: 'Gaps',
    horizon: 'Prediction horizon', method: 'Prediction', samples: 'Predictions', median_error: 'Median absolute error, s',
    mean_error: 'Mean error, s', inside: 'Within bounds', inside_share: 'Within bounds, %',
  },
};
