import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { BUILD } from '../build';
import { tilesConfig } from './config';
import { BaseMapSources } from './openTileSource';
import photoRoute from './photoRoute';
import tilesRoutes from './tilesRoutes';

/** Map tiles and vehicle photos, served by the product itself (it must work without internet). */
async function tilesPlugin(app: FastifyInstance): Promise<void> {
  const config = tilesConfig(app.config.dataDir, BUILD.version);
  // A mistyped TILE_SOURCE must not take the console down: the maps go without tiles and say where to set them.
  if (config.source && config.initialBaseMap.kind === 'none') {
    app.log.error(
      { source: config.source },
      "TILE_SOURCE is not an http(s) URL with {z}, {x}, {y}, 'mbtiles:/file' or 'dir:/folder'; no base map",
    );
  }
  const sources = new BaseMapSources(config, (err) => app.log.error({ err }, 'tile source not usable; tiles are off'));
  app.addHook('onClose', async () => sources.close());
  await app.register(tilesRoutes, { sources, config });
  await app.register(photoRoute, { photoDir: config.photoDir });
}

export default fp(tilesPlugin, { name: 'tiles', dependencies: ['access'] });
