import type { FastifyInstance } from 'fastify';
import { fail } from '../http/errors';
import { bearerToken } from '../http/access';
import { loadCurrentUser, loadProfile } from './currentUser';
import { spendPasswordCheck, verifyPassword } from './passwords';
import { LoginThrottle } from './loginThrottle';
import type { LoginResponse } from '../../shared/api';

const messages = { type: 'object', properties: { messages: { type: 'array', items: { type: 'string' } } } } as const;
const userSchema = { type: 'object', additionalProperties: true } as const;

/** Authentication calls of spec section 7: login, logout, current user, map position, permission refresh. */
export default async function authRoutes(app: FastifyInstance): Promise<void> {
  const throttle = new LoginThrottle(app.db, app.config.loginThrottle);

  app.post<{ Body: { username?: unknown; password?: unknown } }>(
    '/api/v1/auth/login',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Вход: выдаёт новый токен сессии и текущего пользователя',
        body: {
          type: 'object',
          properties: { username: { type: 'string', maxLength: 200 }, password: { type: 'string', maxLength: 200 } },
        },
        response: { 200: { type: 'object', properties: { token: { type: 'string' }, user: userSchema } }, 400: messages, 429: messages },
      },
    },
    async (request): Promise<LoginResponse> => {
      const username = typeof request.body?.username === 'string' ? request.body.username.trim() : '';
      const password = typeof request.body?.password === 'string' ? request.body.password : '';
      if (!username || !password) throw fail(400, 'login_and_password_required');
      const wait = await throttle.retryAfter(username, request.ip);
      if (wait > 0) {
        request.log.warn({ username, ip: request.ip }, 'login refused: too many failures');
        throw Object.assign(fail(429, 'too_many_attempts'), { headers: { 'retry-after': String(wait) } });
      }
      const [user] = await app.db.query<{ id: number; password_hash: string; is_blocked: boolean }>(
        'select id, password_hash, is_blocked from app.users where lower(username) = lower($1)',
        [username],
      );
      if (!user) {
        await spendPasswordCheck(password);
        await throttle.recordFailure(username, request.ip, false);
        throw fail(400, 'login_not_found');
      }
      if (!(await verifyPassword(user.password_hash, password))) {
        await throttle.recordFailure(username, request.ip, true);
        request.log.warn({ userId: user.id, ip: request.ip }, 'login failed: wrong password');
        throw fail(400, 'password_incorrect');
      }
      if (user.is_blocked) throw fail(400, 'user_blocked');
      await throttle.recordSuccess(username, request.ip);
      const token = await app.sessions.create(user.id, request.ip, request.headers['user-agent']);
      const current = await loadCurrentUser(app.db, user.id, await app.settings.get());
      if (!current) throw fail(400, 'login_not_found');
      await app.journal.record(request, { userId: user.id, action: 'login', object: 'session' });
      return { token, user: current };
    },
  );

  app.get(
    '/api/v1/auth/logout',
    {
      config: { access: 'public' },
      schema: { tags: ['auth'], summary: 'Выход: отзывает токен сессии' },
    },
    async (request, reply) => {
      const token = bearerToken(request);
      const user = token ? await app.sessions.resolve(token, false) : null;
      if (user) {
        await app.sessions.revoke(user.tokenHash);
        await app.journal.record(request, { userId: user.id, action: 'logout', object: 'session' });
      }
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/v1/auth/current/',
    {
      config: { access: 'session' },
      schema: { tags: ['auth'], summary: 'Текущий пользователь', response: { 200: userSchema, 401: messages } },
    },
    async (request) => currentOf(app, request.user!.id),
  );

  // The field app calls it without the trailing slash (field-app spec section 7).
  app.get(
    '/api/v1/auth/current',
    {
      config: { access: 'session' },
      schema: {
        tags: ['auth'],
        summary: 'Текущий пользователь (без завершающей косой черты)',
        response: { 200: userSchema, 401: messages },
      },
    },
    async (request) => currentOf(app, request.user!.id),
  );

  app.post<{ Body: { lat: number; lon: number; zoom?: number; accuracy?: number } }>(
    '/api/v1/auth/coord',
    {
      config: { access: 'session' },
      schema: {
        tags: ['auth'],
        summary:
          'С zoom: сохранить положение карты пользователя. С accuracy (м): положение устройства, которое полевое приложение передаёт во время задания контроля; карта /bc/departmentcontroll показывает последнее',
        body: {
          type: 'object',
          required: ['lat', 'lon'],
          additionalProperties: false,
          properties: {
            lat: { type: 'number', minimum: -90, maximum: 90 },
            lon: { type: 'number', minimum: -180, maximum: 180 },
            zoom: { type: 'integer', minimum: 0, maximum: 22 },
            accuracy: { type: 'number', minimum: 0, maximum: 100_000 },
          },
        },
        response: {
          200: {
            type: 'object',
            properties: { lat: { type: 'number' }, lon: { type: 'number' }, zoom: { type: 'integer' }, accuracy: { type: 'number' } },
          },
          400: messages,
        },
      },
    },
    async (request) => {
      const { lat, lon, zoom, accuracy } = request.body;
      if (zoom === undefined && accuracy === undefined) throw fail(400, 'bad_request', 'zoom');
      const userId = request.user!.id;
      if (accuracy !== undefined) {
        await app.db.query(
          `insert into bc.user_position (user_id, lat, lon, accuracy, at) values ($1, $2, $3, $4, now())
         on conflict (user_id) do update set lat = excluded.lat, lon = excluded.lon, accuracy = excluded.accuracy, at = excluded.at`,
          [userId, lat, lon, accuracy],
        );
      }
      if (zoom === undefined) return { lat, lon, accuracy };
      const position = { lat: round5(lat), lon: round5(lon), zoom };
      await app.db.query('update app.users set map_settings = $2 where id = $1', [userId, JSON.stringify(position)]);
      app.sessions.forgetProfile(userId);
      return position;
    },
  );

  // Permissions are read on every request, so a role change already binds the server; this call lets a
  // logged-in console pick up its new menu without logging in again.
  app.post(
    '/api/v1/auth/update-permissions',
    {
      config: { access: 'session', journal: false },
      schema: {
        tags: ['auth'],
        summary: 'Перечитать права текущего пользователя после изменения ролей',
        response: { 200: { type: 'object', properties: { permissions: { type: 'object', additionalProperties: { type: 'integer' } } } } },
      },
    },
    async (request) => ({ permissions: (await currentOf(app, request.user!.id)).permissions }),
  );
}

/** Read through the sessions' cache, so auth/current answers without waiting on a busy database. */
async function currentOf(app: FastifyInstance, userId: number) {
  const profile = await app.sessions.profile(userId, () => loadProfile(app.db, userId));
  if (!profile) throw fail(401, 'unauthorized');
  return { ...profile, settings: await app.settings.get() };
}

const round5 = (value: number) => Math.round(value * 1e5) / 1e5;
