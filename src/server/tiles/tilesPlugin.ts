import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { BUILD } from '../build';
import { tilesConfig } from './config';
import { openTileSource } from './openTileSource';
import type { TileSource } from './tileSource';
import photoRoute from './photoRoute';
import tilesRoutes from './tilesRoutes';

/** Map tiles and vehicle photos, served by the product itself (it must work without internet). */
async function tilesPlugin(app: FastifyInstance): Promise<void> {
  const config = tilesConfig(app.config.dataDir, BUILD.version);
  let source: TileSource | undefined;
  try {
    source = openTileSource(config);
  } catch (err) {
    // A mistyped setting must not take the console down: the map still works on a plain background.
    app.log.error({ err }, 'tile source not usable; tiles are off');
  }
  if (source) app.addHook('onClose', async () => source.close());
  await app.register(tilesRoutes, { source, config });
  await app.register(photoRoute, { photoDir: config.photoDir });
}

export default fp(tilesPlugin, { name: 'tiles', dependencies: ['access'] });
