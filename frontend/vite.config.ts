import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const frontendDir = __dirname;
const repoRoot = path.resolve(frontendDir, '..');

// Everything environment-specific (brand, payment mode, keys) comes from GET /api/config at run time,
// so one build serves every environment.
export default defineConfig({
  root: frontendDir,
  publicDir: path.join(frontendDir, 'public'),
  plugins: [react(), tailwindcss()],
  build: {
    outDir: path.join(frontendDir, 'dist'),
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
});
