import { CREATE, DELETE, READ, UPDATE, HANDBOOKS_PREFIX, MAP_KEYS, type PermissionMap } from '../../../shared/permissions';
import { CONSOLE_ROUTES } from '../../../shared/routes';

const keysOf = (prefixes: string[]) =>
  CONSOLE_ROUTES.filter((route) => prefixes.some((p) => route.path.startsWith(p)) && !route.key).map((route) => route.path);
const grant = (keys: readonly string[], bits: number): PermissionMap => Object.fromEntries(keys.map((key) => [key, bits]));

/** Demo roles besides the administrator system role: what each kind of staff does every day. */
export const DEMO_ROLES: { name: string; description: string; permissions: PermissionMap }[] = [
  {
    name: 'Диспетчер',
    description: 'Карта, диспетчерская, видео, пассажиропоток, справочники, журналы',
    permissions: {
      ...grant(MAP_KEYS, READ),
      // codes 44–47: the live timetable, its exceptions, service changes and alerts, messages to drivers
      ...grant(keysOf(['/dispatch/']), READ | CREATE | UPDATE),
      ...grant(keysOf(['/video/', '/passengers/', '/reports/', '/adas/', '/vehicle-diagnostic']), READ | CREATE | UPDATE),
      ...grant(keysOf(['/journal/']), READ),
      // code 27: a dispatcher deletes their own video requests (anybody's is code 24, the administrator's)
      '/video/myrequests': READ | CREATE | UPDATE | DELETE,
      [HANDBOOKS_PREFIX]: READ | CREATE | UPDATE | DELETE,
    },
  },
  {
    name: 'Контролёр',
    description: 'Контроль оплаты проезда, карта, справочники для чтения',
    permissions: {
      ...grant(MAP_KEYS, READ),
      ...grant(keysOf(['/bc/']), READ | CREATE | UPDATE),
      [HANDBOOKS_PREFIX]: READ,
    },
  },
  {
    name: 'Наблюдатель',
    description: 'Только просмотр',
    permissions: {
      ...grant(MAP_KEYS, READ),
      ...grant(
        keysOf(['/video/', '/passengers/', '/reports/', '/adas/', '/journal/', '/vehicle-diagnostic', '/dispatch/', '/users', '/roles']),
        READ,
      ),
      [HANDBOOKS_PREFIX]: READ,
    },
  },
];
