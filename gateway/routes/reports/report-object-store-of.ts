import {
  createReportObjectStore,
  type ReportObjectStore,
} from '../../../workflows/reports/archive/report-archive';
import type { GatewayServices } from '../../services';

const stores = new WeakMap<GatewayServices, ReportObjectStore>();

/** The report archive's object store of these services (one S3 client per gateway process). */
export const reportObjectStoreOf = (services: GatewayServices): ReportObjectStore => {
  let store = stores.get(services);
  if (!store) {
    store = createReportObjectStore(services.config);
    stores.set(services, store);
  }
  return store;
};

/** Closes the store's connections when the gateway closes. */
export const closeReportObjectStore = (services: GatewayServices): void => {
  stores.get(services)?.close();
  stores.delete(services);
};
