import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { contentPlugin } from './build/content';
import { siteUrl } from './build/site-url';

const frontendDir = __dirname;
const repoRoot = path.resolve(frontendDir, '..');

// Everything environment-specific (brand, payment mode, keys) comes from GET /api/config at run time,
// so one build serves every environment; only the public origin (PUBLIC_SITE_URL) is fixed in the build.
export default defineConfig(({ isSsrBuild }) => ({
  root: frontendDir,
  publicDir: path.join(frontendDir, 'public'),
  plugins: [react(), tailwindcss(), contentPlugin(repoRoot)],
  // Canonical and social URLs of the prerendered pages need the public origin at build time.
  define: { __SITE_URL__: JSON.stringify(siteUrl()) },
  build: {
    outDir: path.join(frontendDir, 'dist'),
    // The SSR build (frontend/build/build.ts) writes ES modules Node loads as such.
    rollupOptions: isSsrBuild
      ? { output: { entryFileNames: '[name].mjs', chunkFileNames: 'chunks/[name]-[hash].mjs' } }
      : undefined,
    copyPublicDir: !isSsrBuild,
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    assetsInlineLimit: 0,
  },
  server: {
    // The frontend imports ../domain (shared pricing and upload rules).
    fs: { allow: [repoRoot] },
    proxy: {
      '/api': `http://localhost:${process.env.API_PORT ?? 3000}`,
    },
  },
  preview: {
    proxy: {
      '/api': `http://localhost:${process.env.API_PORT ?? 3000}`,
    },
  },
}));
