import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The browser app; the gateway serves web/dist. In development `npm run web:dev` proxies /api to the gateway.
export default defineConfig({
  root: __dirname,
  plugins: [react()],
  css: { postcss: __dirname },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:3000', ws: true } },
  },
});
