import { readFile, realpath } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { fail } from '../http/errors';
import { imageType } from './tileSource';

/** A photo file name: letters, digits, '_', '-' and dots, an image extension; nothing that could climb a folder. */
const NAME = /^[A-Za-z0-9_-]{2}[A-Za-z0-9_.-]{0,120}\.(jpe?g|png|webp|gif)$/i;

/**
 * GET /photo/{xx}/{name} (field-app spec §7): vehicle photos from DATA_DIR/photos/{xx}/{name}, xx being the
 * name's first two characters. Public: img tags send no token, and the photos show vehicles, not people's data.
 * Only image files are served (checked by their bytes), only from inside the photo folder.
 */
export default async function photoRoute(app: FastifyInstance, { photoDir }: { photoDir: string }): Promise<void> {
  const root = resolve(photoDir);
  app.get<{ Params: { xx: string; name: string } }>(
    '/photo/:xx/:name',
    {
      config: { access: 'public', passive: true },
      schema: {
        tags: ['map'],
        summary: 'Фото ТС: /photo/{первые два символа имени}/{имя файла} (jpg, png, webp, gif)',
        security: [],
        params: {
          type: 'object',
          required: ['xx', 'name'],
          properties: { xx: { type: 'string', pattern: '^[A-Za-z0-9_-]{2}$' }, name: { type: 'string', maxLength: 130 } },
        },
      },
    },
    async (request, reply) => {
      const { xx, name } = request.params;
      if (!NAME.test(name) || name.includes('..') || name.slice(0, 2) !== xx) throw fail(400, 'bad_request');
      const file = join(root, xx, name);
      let body: Buffer;
      try {
        // Symbolic links inside the folder must not lead out of it either.
        const real = await realpath(file);
        const realRoot = await realpath(root);
        if (!real.startsWith(realRoot + sep)) throw fail(404, 'not_found');
        body = await readFile(real);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR')
          throw fail(404, 'not_found');
        throw err;
      }
      const type = imageType(body);
      if (!type) throw fail(404, 'not_found');
      return reply.type(type).header('cache-control', 'public, max-age=86400').send(body);
    },
  );
}
