import { handleCommand, type CommandHandlerDeps } from '../../commands/command-handler';
import { eventRegistry } from '../../commands/event-registry';
import type { EventStore } from '../../commands/event-store/event-store';
import { createPersonalDataProtector } from '../../commands/personal-data';
import { runWithRequestContext } from '../../commands/request-context';
import type { Actor } from '../../domain/actor';
import type { Decider, DomainEvent } from '../../domain/decider';
import type { TenantCommand } from '../../domain/tenant/decide';
import { tenantDecider } from '../../domain/tenant/tenant-decider';
import type { Projection } from '../../projections/framework/projection';
import { ProjectionProcessor } from '../../projections/framework/projection-processor';
import { PROJECTION_CHECKPOINTS, currentVersion } from '../../projections/framework/read-model-versions';
import { rebuildProjection } from '../../projections/framework/rebuild-projection';
import { useProjectionTestSetup } from './projection-test-setup';
import { versionChecksums } from './read-model-checksum';
import { tenantStream } from '../../contracts/stream-ids';

export const platformAdmin: Actor = { userId: 1, isPlatformAdmin: true, tenantRole: null, isAdvisor: false };

/**
 * For the read-model tests: events come from the real deciders through handleCommand (contracts,
 * personal-data encryption, metadata), and the projection runs through the real processor into
 * FerretDB, so what a test reads is what the gateway would read.
 */
export const useReadModelKit = (
  testFile: string,
  projection: Projection,
  /** Read models this one's queries also read (the tenants read model for tenant names). */
  alsoRun: readonly Projection[] = [],
) => {
  const { context, openStore } = useProjectionTestSetup(testFile);
  let store: EventStore | undefined;
  let deps: CommandHandlerDeps | undefined;
  let commands = 0;

  beforeAll(() => {
    store = openStore();
    deps = {
      store,
      registry: eventRegistry,
      personalData: createPersonalDataProtector({ keys: context.keys, registry: eventRegistry }),
    };
  });

  const ready = () => {
    if (!store || !deps) throw new Error('the read-model kit is used before its beforeAll ran');
    return { store, deps };
  };

  /** Runs one command as a signed-in admin of `tenantId`; answers the command's result. */
  const run = <State, Command extends { now: Date }, Event extends DomainEvent>(
    decider: Decider<State, Command, Event>,
    streamId: string,
    command: Command,
  ) => {
    commands += 1;
    const commandId = `command-${commands}`;
    return runWithRequestContext({ actor: 'user:1', requestId: commandId }, () =>
      handleCommand(decider, { streamId, commandId, command }, ready().deps),
    );
  };

  /** A tenant command by a platform admin (tenants are what seller, partner and billing rows hang on). */
  const tenant = <T extends TenantCommand['type']>(
    tenantId: number,
    type: T,
    data: Extract<TenantCommand, { type: T }>['data'],
  ) =>
    run(tenantDecider, tenantStream(tenantId), {
      type,
      data,
      now: new Date('2026-01-05T09:00:00.000Z'),
      actor: platformAdmin,
    } as TenantCommand);

  const processor = (target: Projection, batchSize?: number) =>
    new ProjectionProcessor({
      db: context.db,
      store: ready().store,
      decode: context.decode,
      projection: target,
      batchSize,
    });

  const catchUp = async (batchSize?: number) => {
    for (const other of alsoRun) await processor(other).catchUp();
    return processor(projection, batchSize).catchUp();
  };

  /** Checksums of every collection of the version queries read. */
  const checksums = async () =>
    versionChecksums(context.db, projection, await currentVersion(context.db, projection.name));

  /**
   * Delivers every event again onto the documents already written, as after a lost checkpoint, in
   * small batches so that assignments merge differently from the first run.
   */
  const redeliverEverything = async () => {
    const version = await currentVersion(context.db, projection.name);
    await context.db
      .collection<{ _id: string }>(PROJECTION_CHECKPOINTS)
      .deleteOne({ _id: `${projection.name}@${version}` });
    await catchUp(3);
  };

  const rebuild = () =>
    rebuildProjection({ db: context.db, store: ready().store, decode: context.decode }, projection, {
      batchSize: 2,
    });

  /** Every event delivered again, then a full rebuild, must leave the documents live processing wrote. */
  const expectStableUnderRedeliveryAndRebuild = async () => {
    const live = await checksums();
    await redeliverEverything();
    expect(await checksums()).toEqual(live);
    await rebuild();
    expect(await checksums()).toEqual(live);
  };

  return {
    context,
    run,
    tenant,
    catchUp,
    checksums,
    redeliverEverything,
    rebuild,
    expectStableUnderRedeliveryAndRebuild,
    store: () => ready().store,
  };
};
