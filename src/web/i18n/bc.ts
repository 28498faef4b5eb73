import { valueLabels } from '../../shared/reports/valueNames';
import type { Catalogue } from './catalogue';

export const bcRu = {
  status: valueLabels('bc.status', 'ru'),
  routeType: { 0: 'Основной', 1: 'Попутный' },
  seized: { sk: 'Социальная карта', vesb: 'ВЕСБ', other_leg: 'Прочие легитимные', other_not_leg: 'Нелегитимные' },
  fields: {
    number: 'Номер', date: 'Дата', hours: 'Часы работы', graphic: 'График работы', department: 'Территориальный отдел',
    region: 'Район контроля', workers: 'Контролёры', mainRoutes: 'Основные маршруты', incidentalRoutes: 'Попутные маршруты',
    status: 'Статус', note: 'Примечание',
  },
  orders: {
    create: 'Новое задание', edit: 'Задание № %{number}', save: 'Сохранить', cancel: 'Отмена', delete: 'Удалить', print: 'Печать',
    deleteConfirm: 'Удалить задание № %{number} вместе с отчётом?', saved: 'Задание сохранено', deleted: 'Задание удалено',
    empty: 'Заданий с такими условиями нет', period: 'Период', from: 'С', to: 'По', filters: 'Фильтры', allDepartments: 'Все отделы',
    allStatuses: 'Все статусы', worker: 'Контролёр', anyWorker: 'Любой', result: 'Отчёт', suggest: 'Предложить маршруты',
    suggestion: 'Реже всего проверялись в эти часы за 4 недели: %{routes}', noSuggestion: 'Нет маршрутов для предложения',
    required: 'Заполните номер, дату, график и отдел',
  },
  calendar: {
    department: 'Отдел', prev: 'Предыдущий месяц', next: 'Следующий месяц', today: 'Сегодня', add: 'Добавить задание',
    copy: 'Копировать день', copyTitle: 'Копировать задания %{date}', copyTo: 'На дни месяца', copied: 'Создано заданий: %{count}',
    more: 'ещё %{count}', weekdays: 'Пн,Вт,Ср,Чт,Пт,Сб,Вс',
  },
  map: {
    departments: 'Отделы', today: 'Задания на сегодня', controllers: 'Контролёры на линии', noControllers: 'Нет свежих положений контролёров',
    closedCount: 'Выполнено заданий сегодня', workersTotal: 'Контролёров в отделе', workersOnTask: 'На заданиях в районе', address: 'Адрес',
    region: 'Район контроля', noTasks: 'Заданий на сегодня нет',
  },
  result: {
    title: 'Отчёт по заданию № %{number}', tickets: 'Проверено билетов', checks: 'Проверки ТС', photos: 'Фотографии', noPhotos: 'Фотографий нет',
    noChecks: 'Проверок ТС нет', route: 'Маршрут', depot: 'Гаражный №', driver: 'Табельный № водителя', sold: 'Продано билетов',
    kickout: 'Высажено', ovd: 'Доставлено в полицию', raport: 'Рапорт', seized: 'Изъято', total: 'Итого', back: 'К списку',
    notFound: 'Задание не найдено',
  },
};

export const bcEn: Catalogue<typeof bcRu> = {
  status: valueLabels('bc.status', 'en'),
  routeType: { 0: 'Main', 1: 'Incidental' },
  seized: { sk: 'Social card', vesb: 'VESB', other_leg: 'Other legitimate', other_not_leg: 'Illegitimate' },
  fields: {
    number: 'Number', date: 'Date', hours: 'Working hours', graphic: 'Work graphic', department: 'Territorial department',
    region: 'Control region', workers: 'Controllers', mainRoutes: 'Main routes', incidentalRoutes: 'Incidental routes',
    status: 'Status', note: 'Note',
  },
  orders: {
    create: 'New order', edit: 'Order No. %{number}', save: 'Save', cancel: 'Cancel', delete: 'Delete', print: 'Print',
    deleteConfirm: 'Delete order No. %{number} with its report?', saved: 'Order saved', deleted: 'Order deleted',
    empty: 'No orders for these filters', period: 'Period', from: 'From', to: 'To', filters: 'Filters', allDepartments: 'All departments',
    allStatuses: 'All statuses', worker: 'Controller', anyWorker: 'Any', result: 'Report', suggest: 'Suggest routes',
    suggestion: 'Least checked at these hours in 4 weeks: %{routes}', noSuggestion: 'No routes to suggest',
    required: 'Fill in the number, date, graphic and department',
  },
  calendar: {
    department: 'Department', prev: 'Previous month', next: 'Next month', today: 'Today', add: 'Add order',
    copy: 'Copy day', copyTitle: 'Copy the orders of %{date}', copyTo: 'To days of the month', copied: 'Orders created: %{count}',
    more: '%{count} more', weekdays: 'Mo,Tu,We,Th,Fr,Sa,Su',
  },
  map: {
    departments: 'Departments', today: 'Today\'s orders', controllers: 'Controllers on duty', noControllers: 'No recent controller positions',
    closedCount: 'Orders done today', workersTotal: 'Controllers of the department', workersOnTask: 'On orders in the region', address: 'Address',
    region: 'Control region', noTasks: 'No orders today',
  },
  result: {
    title: 'Report of order No. %{number}', tickets: 'Tickets checked', checks: 'Vehicle checks', photos: 'Photos', noPhotos: 'No photos',
    noChecks: 'No vehicle checks', route: 'Route', depot: 'Depot No.', driver: 'Driver personnel No.', sold: 'Tickets sold',
    kickout: 'Put off', ovd: 'Delivered to police', raport: 'Report', seized: 'Seized', total: 'Total', back: 'Back to the list',
    notFound: 'Order not found',
  },
};
