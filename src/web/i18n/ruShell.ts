/**
 * The part of the Russian catalogue the pages without a session show (both front ends' login, loading and
 * service pages, the console's about page, the field app's global error screen): the login pages carry only
 * this; the whole catalogue (ru.ts, which takes these keys from here) comes with the logged-in apps.
 */
export const ruShell = {
  app: {
    name: 'Транспортная платформа',
    subtitle: 'Консоль диспетчера',
    loading: 'Загрузка',
    toMain: 'На главную',
    login: 'Войти',
    language: 'Язык',
    languages: { ru: 'Русский', en: 'English' },
    fullscreen: { enter: 'Во весь экран', exit: 'Выйти из полноэкранного режима' },
    sidebar: 'Меню',
    logout: 'Выйти',
    close: 'Закрыть',
  },
  login: {
    heading: 'Авторизация',
    username: 'Логин',
    password: 'Пароль',
    submit: 'Войти',
    required: 'Это обязательное поле',
  },
  modules: {
    map: 'Карта',
    video: 'Видео',
    passengers: 'Пассажиропоток',
    bc: 'Контроль оплаты',
    importData: 'Импорт данных валидации',
    mntConfiguration: 'Удалённое обновление МНТ',
    vehicleWorkData: 'Данные о работе ТС',
    vehicleDiagnostic: 'Диагностика ТС',
    pdm: 'ПДМ',
    adas: 'Отчёты ИСПВ',
    dispatch: 'Диспетчерская',
    system: 'Настройки системы',
    handbooks: 'Справочники',
    journals: 'Журналы',
    administration: 'Администрирование',
  },
  moduleFilters: {
    all: 'Все',
    ump: 'УМП',
    video: 'Видео',
    passengers: 'Пассажиропоток',
    bc: 'Контроль оплаты',
    monitoring: 'Мониторинг',
  },
  about: {
    title: 'О системе',
    modules: 'Модули',
    manuals: 'Руководства',
    enabled: 'Включён',
    disabled: 'Выключен',
    version: 'Версия',
    buildDate: 'Дата сборки',
    manualVersion: 'версия %{version}',
    manualUnavailable: 'недоступно',
    manualList: {
      administrator: 'Руководство администратора',
      operator: 'Руководство оператора',
      controller: 'Руководство контролёра',
    },
  },
  service: {
    accessDenied: { title: 'Отказано в доступе', text: 'Нет доступа' },
    notFound: { title: 'Не найдено', text: 'Страница не найдена или у вас нет доступных разделов' },
    serverError: { title: 'Ошибка', text: 'Сервер не ответил на запрос. Повторите попытку позже' },
    noConnection: { title: 'Нет соединения', text: 'Нет связи с сервером. Проверьте подключение к сети' },
  },
  menu: { about: 'О системе' },
  mobile: {
    subtitle: 'Мобильное приложение',
    error: {
      message: 'Ошибка: %{message}',
      name: 'Тип ошибки: %{name}',
      back: 'Вернуться',
    },
  },
};
