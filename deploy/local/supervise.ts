import { crashLogFile } from './crash-log';
import { serverNamed } from './servers';
import { defaultSupervisorTiming, superviseServer } from './supervisor';

/**
 * `infra up` starts each local server under this script (run detached, its pid in the server's pid file),
 * which restarts the server when it crashes; `infra status` reports the crashes. A signal to the process
 * group (`infra down`) stops the server and ends supervision.
 */
const name = process.argv[2];
if (!name) {
  process.stderr.write('usage: supervise <server>\n');
  process.exit(2);
}
const supervision = superviseServer(serverNamed(name), {
  ...defaultSupervisorTiming,
  crashLog: crashLogFile(name),
  note: (line) => process.stdout.write(`[supervisor ${new Date().toISOString()}] ${line}\n`),
  onEnd: (code) => process.exit(code),
});
process.on('SIGTERM', () => supervision.stop());
process.on('SIGINT', () => supervision.stop());
