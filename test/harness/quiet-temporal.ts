import { DefaultLogger, Runtime } from '@temporalio/worker';

// The SDK logs every worker state change at INFO; tests want warnings only.
try {
  Runtime.install({ logger: new DefaultLogger('WARN'), shutdownSignals: [] });
} catch {
  // Already installed in this worker process by an earlier test file.
}
