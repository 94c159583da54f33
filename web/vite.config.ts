import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const inNodeModules = (packages: string) => new RegExp(`node_modules[\\\\/](${packages})[\\\\/]`);

/** What every page needs from the first load: React, the router, server state, client state, zod. */
const vendor = inNodeModules(
  'react|react-dom|scheduler|react-router|cookie|set-cookie-parser|@tanstack[\\\\/]react-query|@tanstack[\\\\/]query-core|jotai|zod',
);
/** Only the pages with a data table. */
const table = inNodeModules('@tanstack[\\\\/]react-table|@tanstack[\\\\/]table-core');
/** Recharts and Tremor's chart components: heavy, and only for pages that draw charts. */
const charts = inNodeModules(
  'recharts|recharts-scale|react-smooth|victory-vendor|d3-[a-z-]+|internmap|lodash|decimal\\.js-light|eventemitter3|fast-equals|@tremor[\\\\/]react[\\\\/]dist[\\\\/]components[\\\\/](chart-elements|spark-elements)',
);

// The browser app; the gateway serves web/dist. In development `npm run web:dev` proxies /api to the gateway.
export default defineConfig({
  root: __dirname,
  plugins: [react()],
  css: { postcss: __dirname },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      // Tremor's package.json does not declare itself free of side effects, so importing one component
      // kept all of them, charts included (recharts was a fifth of the bundle with no chart on a page).
      treeshake: {
        moduleSideEffects: [{ test: inNodeModules('@tremor[\\\\/]react'), sideEffects: false }],
      },
      // Each route page is a chunk of its own (web/src/routing/app-routes.tsx); libraries go to a few
      // long-lived chunks, so a release that changes only our code leaves them cached. The groups
      // are taken by priority: Tremor is taken before charts so that its shared helpers stay in it
      // and loading Tremor never loads the charts.
      output: {
        codeSplitting: {
          groups: [
            { name: 'vendor', test: vendor, priority: 40 },
            { name: 'table', test: table, priority: 30 },
            { name: 'tremor', test: (id) => /node_modules[\\/]/.test(id) && !charts.test(id), priority: 20 },
            { name: 'charts', test: charts, priority: 10 },
            // The API schemas the pages share, instead of a dozen chunks of a few hundred bytes.
            { name: 'contracts', test: /[\\/]contracts[\\/]/, priority: 5 },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:3000', ws: true } },
  },
});
