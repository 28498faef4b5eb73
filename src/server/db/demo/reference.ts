import { VEHICLE_CLASSES } from '../../../shared/constants';
import type {
  CameraTypeRow,
  CapacityTypeRow,
  ControllerEquipmentTypeRow,
  DvrTypeRow,
  HolidayRow,
  IncidentTypeRow,
  MarshTypeRow,
  MntTypeRow,
  TicketTypeRow,
  TicketViewRow,
  TransportTypeRow,
  WorkGraphicTypeRow,
} from './rows';

/** Small fixed code tables: the same at every scale. */

export const TRANSPORT_TYPE = { bus: 1, trolleybus: 2, tram: 3 } as const;
export type TransportKind = keyof typeof TRANSPORT_TYPE;

/** The last entry ('-') exists so that the current user's transporttype list can show it is dropped (spec section 3). */
export const TRANSPORT_TYPES: TransportTypeRow[] = [
  { id: 1, title: 'Автобус', note: 'А' },
  { id: 2, title: 'Троллейбус', note: 'Тб' },
  { id: 3, title: 'Трамвай', note: 'Тм' },
  { id: 4, title: '-', note: '-' },
];

export const transportCode = (kind: TransportKind): string => TRANSPORT_TYPES[TRANSPORT_TYPE[kind] - 1].note;

const SEATS = [15, 25, 32, 45];
/** Exactly the vehicle class codes, the id being the class rank 1..4. */
export const CAPACITY_TYPES: CapacityTypeRow[] = VEHICLE_CLASSES.map((vehicleClass, i) => ({
  id: vehicleClass.rank,
  code: vehicleClass.code,
  title: `${vehicleClass.title[0].toUpperCase()}${vehicleClass.title.slice(1)} класс`,
  seats: SEATS[i],
}));
export const CAPACITY = { МК: 1, СК: 2, БК: 3, ОБК: 4 } as const;

export const MARSH_TYPE = { city: 1, suburban: 2, night: 3, express: 4, social: 5 } as const;
export const MARSH_TYPES: MarshTypeRow[] = [
  { id: 1, title: 'Городской' },
  { id: 2, title: 'Пригородный' },
  { id: 3, title: 'Ночной' },
  { id: 4, title: 'Экспресс' },
  { id: 5, title: 'Социальный' },
];

export const TICKET_VIEWS: TicketViewRow[] = [
  'Разовый',
  'Проездной',
  'Льготный',
  'Социальная карта',
  'Электронный кошелёк',
  'Банковская карта',
].map((ticket_kind_name, i) => ({ ticket_kind_id: i + 1, ticket_kind_name }));

export const TICKET_TYPES: TicketTypeRow[] = (
  [
    ['101', 'Разовый билет на автобус', 1],
    ['102', 'Разовый билет на троллейбус', 1],
    ['103', 'Разовый билет на трамвай', 1],
    ['201', 'Проездной на календарный месяц', 2],
    ['202', 'Проездной на 30 дней, 70 поездок', 2],
    ['203', 'Проездной на 15 дней', 2],
    ['301', 'Студенческий проездной', 3],
    ['302', 'Школьный проездной', 3],
    ['401', 'Единая социальная карта', 4],
    ['402', 'Карта пенсионера', 4],
    ['501', 'Карта «Подорожник»', 5],
    ['601', 'Оплата банковской картой', 6],
  ] as const
).map(([ticket_type_code, ticket_type_name, ticket_kind_id], i) => ({
  ticket_type_id: i + 1,
  ticket_type_code,
  ticket_type_name,
  ticket_kind_id,
}));

export const INCIDENT_TYPES: IncidentTypeRow[] = (
  [
    [101, 'Опасное сближение', 'Сближение', '#e53935'],
    [102, 'Отвлечение водителя', 'Отвлечение', '#fb8c00'],
    [103, 'Усталость водителя', 'Усталость', '#8e24aa'],
    [104, 'Курение', 'Курение', '#6d4c41'],
    [105, 'Разговор по телефону', 'Телефон', '#1e88e5'],
    [106, 'Выезд из полосы', 'Выезд из полосы', '#fdd835'],
    [107, 'Превышение скорости', 'Скорость', '#d81b60'],
    [108, 'Отсутствие ремня безопасности', 'Ремень', '#43a047'],
    [109, 'Водитель не обнаружен', 'Нет водителя', '#546e7a'],
    [110, 'Камера закрыта', 'Камера закрыта', '#212121'],
  ] as const
).map(([incident_type, incident_name, incident_short_name, incident_color], i) => ({
  id: i + 1,
  incident_type,
  incident_name,
  incident_short_name,
  incident_color,
}));

export const WORK_GRAPHIC_TYPES: WorkGraphicTypeRow[] = (
  [
    [1, 'Дневная смена', 'Д', 480, 1020, 8],
    [2, 'Утренняя смена', 'У', 300, 780, 8],
    [3, 'Вечерняя смена', 'В', 840, 1410, 9.5],
    [4, 'Ночная смена', 'Н', 1320, 360, 8],
    [5, 'Разрывная смена', 'Р', 360, 1200, 9],
    [6, 'Сутки через трое', 'С', 480, 480, 24],
    [7, 'Выходной', 'ВЫХ', null, null, 0],
    [8, 'Отпуск', 'ОТП', null, null, 0],
    [9, 'Больничный', 'Б', null, null, 0],
  ] as const
).map(([code, title, short, start, end, work_hours], i) => ({ id: i + 1, code, title, short, start, end, work_hours }));

/** Names of letters, digits, '_' and '-' only (spec section 5); the type is the telemetry protocol. */
export const MNT_TYPES: MntTypeRow[] = (
  [
    ['Scout_MT-600', 'EGTS', '2.3.1', false],
    ['Galileosky_7', 'EGTS', '7.1', true],
    ['Arnavi_5', 'NDTP', '5.0.4', false],
    ['Teltonika_FMB920', 'Wialon_IPS', '3.27', true],
    ['M2M-Cyber_GLX', 'EGTS', '1.12', false],
  ] as const
).map(([name, type, version, is_serial_number], i) => ({ id: i + 1, name, type, version, is_serial_number }));

export const DVR_TYPES: DvrTypeRow[] = (
  [
    ['Streamax_X3N', 'STREAMAX', '2.5.0', true],
    ['Hikvision_AE-MD5043', 'HIKVISION', '1.4', false],
    ['Dahua_MXVR1404', 'DAHUA', '3.2', false],
    ['Howen_Hero-ME41', 'HOWEN', '1.9.2', true],
  ] as const
).map(([name, type_code, version, is_serial_number_identification], i) => ({
  id: i + 1,
  name,
  type_code,
  version,
  is_serial_number_identification,
}));

export const CAMERA_TYPES: CameraTypeRow[] = ['Передняя', 'Салон', 'Задняя', 'Водитель'].map((title, i) => ({
  ip: i + 1,
  index: i + 1,
  title,
  ip_addr: `192.168.1.${101 + i}`,
}));

export const CONTROLLER_EQUIPMENT_TYPES: ControllerEquipmentTypeRow[] = [
  'Терминал контролёра ТК-5',
  'Мобильный терминал «Кондуктор-М»',
  'Смартфон с NFC-считывателем',
  'Портативный валидатор ПВ-2',
].map((pu_model_name, i) => ({ pu_model_id: i + 1, pu_model_name }));

const PUBLIC_HOLIDAYS = [
  '01-01',
  '01-02',
  '01-03',
  '01-04',
  '01-05',
  '01-06',
  '01-07',
  '01-08',
  '02-23',
  '03-08',
  '05-01',
  '05-09',
  '06-12',
  '11-04',
];

/**
 * Russian public holidays of two years, run by the Sunday timetable (dow 0) on every route, and a few
 * route-specific days (the Victory Day parade closes the centre: those routes run as on Saturday).
 */
export function holidays(years: readonly number[], centreRouteIds: readonly number[]): HolidayRow[] {
  const rows: HolidayRow[] = [];
  for (const year of years)
    for (const day of PUBLIC_HOLIDAYS) rows.push({ id: rows.length + 1, route_id: null, date: `${year}-${day}`, dow: 0 });
  for (const route_id of centreRouteIds) rows.push({ id: rows.length + 1, route_id, date: `${years[years.length - 1]}-05-09`, dow: 6 });
  rows.push({ id: rows.length + 1, route_id: null, date: `${years[years.length - 1]}-12-31`, dow: null });
  return rows;
}
