import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The workbench's build: `web/` in, `dist/web/` out (the published package carries it and
 * `canonry serve` serves it). Hashed file names under `assets/` let the server cache them for good.
 * `npx vite --config web/vite.config.ts` serves it for development, the API proxied to a
 * `canonry serve` on :7070.
 */
export default defineConfig({
  root: here('.'),
  base: '/',
  plugins: [react()],
  build: {
    outDir: here('../dist/web'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
  },
  server: {
    proxy: {
      '/v1': { target: 'http://127.0.0.1:7070' },
      '/openapi.json': { target: 'http://127.0.0.1:7070' },
    },
  },
});
