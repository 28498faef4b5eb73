/** The demo logins, one per kind of staff (README). They exist only with the demo data. */
export const DEMO_ACCOUNTS = [
  { username: 'admin', password: 'admin123', role: 'Администратор', firstName: 'Анна', lastName: 'Администраторова', title: 'Администратор системы', blocked: false },
  { username: 'operator', password: 'operator123', role: 'Диспетчер', firstName: 'Олег', lastName: 'Диспетчеров', title: 'Диспетчер', blocked: false },
  { username: 'controller', password: 'controller123', role: 'Контролёр', firstName: 'Ксения', lastName: 'Контролёрова', title: 'Контролёр', blocked: false },
  { username: 'viewer', password: 'viewer123', role: 'Наблюдатель', firstName: 'Виктор', lastName: 'Наблюдателев', title: 'Наблюдатель', blocked: false },
  { username: 'blocked', password: 'blocked123', role: 'Наблюдатель', firstName: 'Борис', lastName: 'Блокированный', title: 'Уволен', blocked: true },
] as const;
