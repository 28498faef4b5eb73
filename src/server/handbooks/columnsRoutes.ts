import type { FastifyInstance } from 'fastify';
import { handbookSchema } from '../../../schemas/index';
import { defaultVisibleFields } from '../../shared/handbooks/fields';
import { fail } from '../http/errors';

const TABLE_NAME = /^[A-Za-z][A-Za-z0-9_.\-/]{0,99}$/;
const COLUMNS_MAX = 200;

/**
 * Per-user column visibility (spec: GET/POST /api/v1/users/columns, app.user_columns). `table` is a
 * handbook type (its columns are checked against the schema and default to the non-hidden fields) or the
 * key of another list screen (any column names, default none). Turning off the last visible column is
 * ignored: an empty list keeps the previous choice (spec section 5).
 */
export default async function columnsRoutes(app: FastifyInstance): Promise<void> {
  const saved = async (userId: number, table: string): Promise<string[] | undefined> => {
    const [row] = await app.db.query<{ fields: string[] }>('select fields from app.user_columns where user_id = $1 and table_name = $2', [
      userId,
      table,
    ]);
    return row?.fields;
  };
  const defaults = (table: string): string[] => {
    const schema = handbookSchema(table);
    return schema ? defaultVisibleFields(schema) : [];
  };

  app.get<{ Querystring: { table: string } }>(
    '/api/v1/users/columns',
    {
      config: { access: 'session' },
      schema: {
        tags: ['users'],
        summary: 'Видимые столбцы таблицы для текущего пользователя',
        description:
          'table — тип справочника (или ключ другого списка). Без сохранённого выбора — столбцы справочника, не скрытые по умолчанию.',
        querystring: { type: 'object', required: ['table'], properties: { table: { type: 'string', maxLength: 100 } } },
      },
    },
    async (request) => {
      const { table } = request.query;
      if (!TABLE_NAME.test(table)) throw fail(400, 'bad_request');
      return { fields: (await saved(request.user!.id, table)) ?? defaults(table) };
    },
  );

  app.post<{ Body: { table: string; columns: string[] } }>(
    '/api/v1/users/columns',
    {
      config: { access: 'session' },
      schema: {
        tags: ['users'],
        summary: 'Сохранить видимые столбцы таблицы для текущего пользователя',
        description: 'Пустой список не сохраняется (нельзя скрыть последний столбец): ответ содержит прежний выбор.',
        body: {
          type: 'object',
          required: ['table', 'columns'],
          properties: {
            table: { type: 'string', maxLength: 100 },
            columns: { type: 'array', maxItems: COLUMNS_MAX, items: { type: 'string', maxLength: 100 } },
          },
        },
      },
    },
    async (request) => {
      const { table } = request.body;
      if (!TABLE_NAME.test(table)) throw fail(400, 'bad_request');
      const columns = [...new Set(request.body.columns)];
      const schema = handbookSchema(table);
      if (schema) {
        const known = new Set(schema.fields.map((field) => field.name));
        if (columns.some((column) => !known.has(column))) throw fail(400, 'bad_request');
      }
      const userId = request.user!.id;
      if (!columns.length) return { fields: (await saved(userId, table)) ?? defaults(table) };
      await app.db.query(
        `insert into app.user_columns (user_id, table_name, fields) values ($1, $2, $3::jsonb)
       on conflict (user_id, table_name) do update set fields = excluded.fields`,
        [userId, table, JSON.stringify(columns)],
      );
      app.sessions.forgetProfile(userId); // auth/current carries the user's columns
      return { fields: columns };
    },
  );
}
