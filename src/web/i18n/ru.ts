import { mobileRu } from './mobile';
import { usersRu } from './users';
import { rolesRu } from './roles';
import { accessRu } from './access';
import { settingsRu } from './settings';
import { journalsRu } from './journals';
import { videoRu } from './video';
import { reportsRu } from './reports';
import { bcRu } from './bc';
import { notificationsRu } from './notifications';
import { handbookEditorRu } from './handbookEditor';
import { fieldMapRu } from './fieldMap';
import { mapViewRu } from './mapView';
import { dispatchRu } from './dispatch';
import { pdmRu } from './pdm';
import { gtfsRu } from './gtfs';
import { equipmentRu } from './equipment';
import { ruShell } from './ruShell';
import type { Catalogue } from './catalogue';
/**
 * Our Russian catalogue (the default language). react-admin's own texts come from ra-language-russian;
 * the server's message codes from the shared error catalogue (errors.*, see messages.ts).
 */
export const ru = {
  ...ruShell,
  equipment: equipmentRu,
  menu: {
    ...ruShell.menu,
    groups: {
      map: 'Карта',
      video: 'Видео',
      passengers: 'Пассажиропоток',
      bc: 'Контроль оплаты',
      importData: 'Импорт данных',
      mntConfiguration: 'Удалённое обновление',
      monitoring: 'Мониторинг',
      pdm: 'ПДМ',
      adas: 'Отчёты ИСПВ',
      dispatch: 'Диспетчерская',
      system: 'Настройки системы',
      handbooks: 'Справочники',
      journals: 'Журналы',
      administration: 'Администрирование',
      about: 'О системе',
    },
    map: 'Карта',
    video: {
      online: 'Онлайн-видео',
      requests: 'Запросы видео',
      requestCreate: 'Новый запрос видео',
      archive: 'Видеоархив',
      myrequests: 'Мои запросы',
      archiveMonitoring: 'Мониторинг архива ТС',
    },
    passengers: {
      analysis: 'Анализ',
      registry: 'Реестр',
      passage: 'Проходы',
      stops: 'Остановки',
      pay: 'Оплата',
      correspondence: 'Корреспонденция',
      passturn: 'Пассажирооборот',
      turnstops: 'Оборот по остановкам',
      betweenstops: 'Между остановками',
      rollingStock: 'Подвижной состав',
      distRollingStock: 'Распределение подвижного состава',
      traffic: 'Отчёт о перевозках',
      dailyData: 'Суточные данные',
    },
    bc: {
      calendar: 'Календарь',
      controllertask: 'Задания контролёров',
      routerate: 'Рейтинг маршрутов',
      departmentcontroll: 'Контроль отделов',
      resultuser: 'Результаты контролёров',
      reports: 'Отчёты',
      result: 'Результаты задания',
    },
    importData: { ticketsValidation: 'Импорт валидаций', gtfs: 'Импорт GTFS' },
    mntConfiguration: {
      configurations: 'Конфигурации',
      configuration: 'Конфигурация',
      vehicleGroups: 'Группы ТС',
    },
    monitoring: { vehicleWorkData: 'Данные о работе ТС', vehicleDiagnostic: 'Диагностика бортового оборудования' },
    dispatch: {
      board: 'Оперативная обстановка',
      lines: 'Линейный график',
      exits: 'План и факт',
      changes: 'Изменения движения',
      alerts: 'Оповещения',
      messages: 'Сообщения водителям',
      onTime: 'Соблюдение расписания',
      runCompletion: 'Выполнение рейсов',
      headways: 'Регулярность интервалов',
      predictions: 'Точность прогнозов',
    },
    pdm: {
      heatmap: 'Тепловая карта',
      treeEditor: 'Редактор деревьев',
      vehicleDiagnosticReport: 'Диагностика датчиков ТС',
      changeNodeJournal: 'Журнал изменения узлов',
      charts: 'Графики',
      service: 'Сервисные отчёты',
      equipmentStatusReport: 'Состояние оборудования',
      importManager: 'Менеджер импорта',
    },
    adas: {
      incidentsDynamic: 'Динамика инцидентов',
      incidentsDistribution: 'Распределение инцидентов',
      incidentsDetailing: 'Детализация инцидентов',
    },
    system: {
      navigation: 'Навигация',
      video: 'Видео',
      passengers: 'Пассажиропоток',
      journals: 'Журналы',
      bc: 'Контроль оплаты',
      eis: 'Импорт из ЕИС',
    },
    handbooks: 'Справочники',
    journals: {
      useractions: 'Действия пользователей',
      eventsts: 'События ТС',
      eventspo: 'События ПО',
      video: 'События видео',
      adas: 'События ИСПВ',
    },
    administration: {
      users: 'Пользователи',
      userCreate: 'Новый пользователь',
      userEdit: 'Пользователь',
      roles: 'Роли',
    },
  },
  filter: {
    search: 'Поиск',
    apply: 'Выбрать',
    reset: 'Сбросить',
    empty: 'Ничего не найдено',
    loading: 'Загрузка',
    selected: 'Выбрано: %{count}',
    truncated: 'Показаны первые %{shown} из %{total}, уточните поиск',
  },
  confirm: { title: 'Подтверждение', yes: 'Да', no: 'Отмена' },
  /** A screen's list or table that could not be read (the http client has said why). */
  loadFailed: 'Не удалось загрузить данные',
  /** The field application under /m (src/mobile). */
  mobile: mobileRu,
  users: usersRu,
  roles: rolesRu,
  access: accessRu,
  settings: settingsRu,
  journals: journalsRu,
  video: videoRu,
  reports: reportsRu,
  bc: bcRu,
  pdm: pdmRu,
  gtfs: gtfsRu,
  dispatch: dispatchRu,
  notifications: notificationsRu,
  handbookEditor: handbookEditorRu,
  fieldMap: fieldMapRu,
  mapView: mapViewRu,
};

/** Every language has exactly the keys of the Russian catalogue. */
export type AppMessages = Catalogue<typeof ru>;
