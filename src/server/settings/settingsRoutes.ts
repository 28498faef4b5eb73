import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Action } from '../../shared/permissions';
import { KNOWN_MODULES, KNOWN_SECTIONS } from './knownSwitches';
import { settingsValidationError } from './validationMessages';
import { subsystemBodySchema, switchesSchema } from './settingsSchemas';
import { applyPatch, checkSettings, journalView, viewOf, type SettingsPatch, type SubsystemView } from './settingsPatch';
import { SUBSYSTEMS, type Subsystem } from './subsystems';
import { baseMapProblem } from '../tiles/openTileSource';
import { fail } from '../http/errors';
import type { SettingsDocument } from './settingsDocument';

const messages = { type: 'object', properties: { messages: { type: 'array', items: { type: 'string' } } } } as const;

/**
 * Module and section switches as a whole. Turning modules on and off reshapes the product for every user, an
 * administration act: it takes the roles right (read to see, update to change). The route itself has no
 * module, so switching 'administration' or 'system' off never locks the switches away.
 */
const ALL_SWITCHES: Pick<Subsystem, 'keys' | 'modules' | 'sections'> = {
  keys: [],
  modules: [...KNOWN_MODULES],
  sections: [...KNOWN_SECTIONS],
};
const SWITCHES_PATH = '/roles';

/**
 * System settings of spec sections 2, 3 and 6: GET and PUT /api/v1/settings/{subsystem}, each behind its own
 * right, and /api/v1/settings/modules. A save is validated, merged into app.settings, journaled with before and
 * after, and in force at once (this process drops its cache; others within the cache's few seconds).
 */
export default async function settingsRoutes(app: FastifyInstance): Promise<void> {
  for (const subsystem of SUBSYSTEMS) {
    const routeConfig = (action: Action) => ({
      access: { path: subsystem.path, action },
      module: 'system' as const,
      section: subsystem.section,
    });
    const url = `/api/v1/settings/${subsystem.id}`;

    app.get(
      url,
      {
        config: routeConfig('read'),
        schema: { tags: ['settings'], summary: `Настройки ${subsystem.title}` },
      },
      async (): Promise<SubsystemView> => viewOf(subsystem, await app.settings.document()),
    );

    app.put<{ Body: SettingsPatch }>(
      url,
      {
        config: routeConfig('update'),
        schemaErrorFormatter: settingsValidationError,
        schema: {
          tags: ['settings'],
          summary: `Изменить настройки ${subsystem.title}: любые из полей раздела; ответ — настройки после изменения`,
          body: subsystemBodySchema(subsystem),
          response: { 400: messages },
        },
      },
      async (request) => save(app, request, subsystem.id, subsystem, request.body),
    );
  }

  app.get(
    '/api/v1/settings/modules',
    {
      config: { access: { path: SWITCHES_PATH, action: 'read' } },
      schema: { tags: ['settings'], summary: 'Включение модулей и разделов (право: роли, просмотр)' },
    },
    async (): Promise<SubsystemView> => viewOf(ALL_SWITCHES, await app.settings.document()),
  );

  app.put<{ Body: SettingsPatch }>(
    '/api/v1/settings/modules',
    {
      config: { access: { path: SWITCHES_PATH, action: 'update' } },
      schemaErrorFormatter: settingsValidationError,
      schema: {
        tags: ['settings'],
        summary: 'Включить или выключить модули и разделы (право: роли, изменение); выключенный раздел отвечает 404',
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { modules: switchesSchema(KNOWN_MODULES, 'Модули'), sections: switchesSchema(KNOWN_SECTIONS, 'Разделы') },
        },
        response: { 400: messages },
      },
    },
    async (request) => save(app, request, 'modules', ALL_SWITCHES, request.body),
  );
}

async function save(
  app: FastifyInstance,
  request: FastifyRequest,
  id: string,
  scope: Pick<Subsystem, 'keys' | 'modules' | 'sections'>,
  patch: SettingsPatch,
): Promise<SubsystemView> {
  const after = await app.db.transaction(async (tx) => {
    const stored = await app.settings.storedForUpdate(tx);
    const current = app.settings.resolve(stored);
    const next = applyPatch(stored, current, patch);
    const resolved = app.settings.resolve(next);
    checkSettings(resolved);
    await checkBaseMap(current, resolved);
    await app.settings.store(tx, next);
    const before = viewOf(scope, current);
    const view = viewOf(scope, resolved);
    await app.journal.record(
      request,
      { action: 'update', object: `settings.${id}`, before: journalView(before), after: journalView(view) },
      tx,
    );
    return view;
  });
  app.settings.invalidate();
  return after;
}

/** A changed base map must be one the server can serve (an unchanged one is left alone, even if its file went). */
async function checkBaseMap(current: SettingsDocument, next: SettingsDocument): Promise<void> {
  const [before, after] = [current.baseMap, next.baseMap];
  if (before.kind === after.kind && before.location === after.location) return;
  const problem = await baseMapProblem(after);
  if (problem) throw fail(400, problem, 'baseMap.location is not usable');
}
