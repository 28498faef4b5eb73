import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { CHUNK_GROUPS } from './scripts/build/chunkGroups';
import { fieldAppFiles } from './scripts/build/fieldAppOffline';
import { precompress } from './scripts/build/precompress';
import { writeHandbookRegistry } from './scripts/build/handbookRegistry.mjs';

const backend = 'http://localhost:3000';
const outDir = 'dist/client';
const fieldApp = fieldAppFiles('mobile');

/**
 * In development, the field app's client-side routes (/m, /m/map, /m/video/12 ...) get m/index.html, as the
 * server does in production (src/server/app.ts, serveFrontEnds); files and Vite's own paths pass through.
 */
function fieldAppFallback(): Plugin {
  return {
    name: 'field-app-fallback',
    configureServer(server) {
      server.middlewares.use((request, _response, next) => {
        const path = (request.url ?? '').split('?')[0];
        const accepted = request.headers.accept ?? '';
        if ((path === '/m' || path.startsWith('/m/')) && !/\.[a-z0-9]+$/i.test(path) && accepted.includes('text/html')) {
          request.url = '/m/index.html';
        }
        next();
      });
    },
  };
}

/** The handbook registry written from schemas/ before the build reads it (scripts/build/handbookRegistry.mjs). */
function handbookRegistry(): Plugin {
  return { name: 'handbook-registry', buildStart: () => void writeHandbookRegistry() };
}

/**
 * Two front ends built into dist/client (the server serves that folder): the console (index.html at the
 * repository root, src/client/main.tsx) with an SPA fallback to index.html, and the field app under /m
 * (m/index.html, src/mobile/main.tsx) with a fallback to m/index.html. They share chunks (React, MUI, the
 * providers). In development the API, geo stream, tiles and photos go to the server on port 3000.
 */
export default defineConfig({
  plugins: [
    handbookRegistry(),
    react(),
    fieldAppFallback(),
    fieldApp.plugin,
    // The field app's service worker (/m/sw.js, scope /m/): its shell and code precached, so it installs and
    // opens offline; the manifest is public/m/manifest.webmanifest. The console at / is outside its scope.
    VitePWA({
      injectRegister: false,
      registerType: 'autoUpdate',
      manifest: false,
      outDir: `${outDir}/m`,
      filename: 'sw.js',
      workbox: {
        globDirectory: outDir,
        globPatterns: ['m/index.html', 'm/**/*.{png,webmanifest}', 'favicon.svg', 'assets/**/*.{js,css,woff2}'],
        globIgnores: ['**/*.br', '**/*.gz', 'm/sw.js'],
        manifestTransforms: [async (entries) => ({ manifest: entries.filter((entry) => fieldApp.keep(entry.url)), warnings: [] })],
        modifyURLPrefix: { '': '/' },
        maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
        navigateFallback: '/m/index.html',
        navigateFallbackAllowlist: [/^\/m(\/|$)/],
        // the API, the geo stream, tiles and photos are never served from the worker's cache
        navigateFallbackDenylist: [/^\/(api|geoapi|tile|photo)\//],
        inlineWorkboxRuntime: true,
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        skipWaiting: true,
      },
    }),
    precompress(outDir),
  ],
  publicDir: 'public',
  build: {
    outDir,
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      input: { main: 'index.html', mobile: 'm/index.html' },
      output: { codeSplitting: { groups: CHUNK_GROUPS } },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': backend,
      '/geoapi': backend,
      '/tile': backend,
      '/photo': backend,
    },
  },
});
