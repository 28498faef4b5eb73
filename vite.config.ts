import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const backend = 'http://localhost:3000';

/**
 * The console front end: index.html at the repository root, src/client/main.tsx its entry, built into
 * dist/client (the server serves that folder with an SPA fallback to index.html). In development the
 * API, geo stream, tiles and photos go to the server on port 3000.
 */
export default defineConfig({
  plugins: [react()],
  publicDir: 'public',
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
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
