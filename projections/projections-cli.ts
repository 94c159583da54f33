import type { Logger } from 'pino';
import type { Config } from '../contracts/config';
import { projectionStatus } from './framework/projection-status';
import { rebuildProjection } from './framework/rebuild-projection';
import { openEventSource } from '../commands/open-event-source';
import { projectionNamed, projections } from './registry';
import { openReadStore } from './read-store/open-read-store';

const usage = `Usage: ledgerwise projections <command>

  status            each read model's version, checkpoint and lag (head position minus checkpoint)
  rebuild <name>    replay every event into a new version, switch queries to it, drop the old one
`;

const formatStatus = async (config: Config, context: Awaited<ReturnType<typeof connect>>) => {
  const rows = await projectionStatus(context.db, context.store, projections);
  const lines = rows.map((row) => {
    const rebuilding = row.rebuilding.map((r) => ` (rebuilding v${r.version} at ${r.checkpoint})`).join('');
    return `${row.name}  v${row.version}  checkpoint ${row.checkpoint}  head ${row.head}  lag ${row.lag}${rebuilding}`;
  });
  return `${lines.join('\n')}\n(event store: ${config.EVENTSTORE_URL ?? 'embedded SQLite'})\n`;
};

const connect = async (config: Config) => {
  const readStore = await openReadStore(config);
  const source = await openEventSource(config).catch(async (error: unknown) => {
    await readStore.close();
    throw error;
  });
  return {
    db: readStore.db,
    store: source.store,
    decode: source.decode,
    close: async () => {
      await source.close();
      await readStore.close();
    },
  };
};

/** `ledgerwise projections status|rebuild <name>`; returns the exit code. */
export const runProjectionsCommand = async (
  args: readonly string[],
  config: Config,
  logger: Logger,
): Promise<number> => {
  const [command, name] = args;
  if (command !== 'status' && command !== 'rebuild') {
    process.stderr.write(usage);
    return 2;
  }
  const projection = name === undefined ? undefined : projectionNamed(name);
  if (command === 'rebuild' && !projection) {
    const known = projections.map((p) => p.name).join(', ');
    process.stderr.write(`Unknown read model ${name ?? '(none given)'}; known: ${known}\n`);
    return 2;
  }
  const context = await connect(config);
  try {
    if (command === 'status') {
      process.stdout.write(await formatStatus(config, context));
      return 0;
    }
    if (!projection) return 2;
    const result = await rebuildProjection({ ...context, logger }, projection);
    process.stdout.write(
      result.switched
        ? `${result.name}: rebuilt as v${result.version} up to position ${result.position}; v${result.previousVersion} dropped\n`
        : `${result.name}: a newer version was switched to meanwhile; v${result.version} dropped\n`,
    );
    return result.switched ? 0 : 1;
  } finally {
    await context.close();
  }
};
