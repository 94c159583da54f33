/**
 * The live websocket at scale (issue 13): clients of many tenants connected to a real gateway
 * (/api/live, docs/adr/0015-live-notices.md), a tenant renamed through the command handler, and the
 * time from the rename command's start to each of that tenant's clients receiving its notice (the
 * append, its durable sync and the projection are all part of it: the handler answers only after the
 * sync, which the notice can beat since docs/adr/0052, so its return would be no lower bound). Baseline, same
 * run: the same change with one client connected in all. The clients run in a forked process
 * (bench/live-clients.ts) so the peak RSS reported is the gateway's.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { handleCommand } from '../../commands/command-handler';
import { tenantStream, userStream } from '../../contracts/stream-ids';
import { systemActor } from '../../domain/actor';
import { tenantDecider } from '../../domain/tenant/tenant-decider';
import { userDecider } from '../../domain/user/user-decider';
import { sessionCookie } from '../../gateway/plugins/session-auth';
import { percentile, type BenchSuite, type Figure } from '../harness';
import type { Arrival, ChildMessage, ClientSpec, ParentMessage } from '../live-clients';
import { wallClock } from '../live-clients';
import { measurePeakRss } from '../sync-bench-seller';
import { startGateway } from './gateway';

type Gateway = Awaited<ReturnType<typeof startGateway>>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Registered ids start here, far from anything the gateway allocates itself. */
const FIRST_USER_ID = 500_000;

/** The clients' process, with a request/answer helper over IPC. */
const startClients = () => {
  const child: ChildProcess = fork(join(__dirname, '..', 'live-clients.ts'), { stdio: 'inherit' });
  const ask = (message: ParentMessage, answer: ChildMessage['type']) =>
    new Promise<ChildMessage>((resolve, reject) => {
      const onMessage = (reply: ChildMessage) => {
        if (reply.type === 'failed') reject(new Error(reply.message));
        else if (reply.type === answer) resolve(reply);
        else return;
        child.off('message', onMessage);
      };
      child.on('message', onMessage);
      child.send(message);
    });
  return {
    connect: async (url: string, origin: string, clients: ClientSpec[]) => {
      await ask({ type: 'connect', url, origin, clients }, 'connected');
    },
    report: async () =>
      (await ask({ type: 'report' }, 'report')) as Extract<ChildMessage, { type: 'report' }>,
    close: () => child.send({ type: 'close' } satisfies ParentMessage),
  };
};

/** Tenants 1..count, each with `usersPerTenant` members registered through the command handler. */
const createTenants = async (gateway: Gateway, first: number, count: number, usersPerTenant: number) => {
  const now = new Date();
  const actor = systemActor;
  const members: { userId: number; tenantId: number }[] = [];
  for (let tenantId = first; tenantId < first + count; tenantId += 1) {
    await handleCommand(
      tenantDecider,
      {
        streamId: tenantStream(tenantId),
        commandId: `live-tenant-${tenantId}`,
        command: {
          type: 'CreateTenant',
          data: { tenantId, name: `Live Co ${tenantId}`, classification: 'BUSINESS' },
          now,
          actor,
        },
      },
      gateway.writeSide,
    );
    for (let k = 0; k < usersPerTenant; k += 1) {
      const userId = FIRST_USER_ID + tenantId * 1000 + k;
      await handleCommand(
        userDecider,
        {
          streamId: userStream(userId),
          commandId: `live-user-${userId}`,
          command: {
            type: 'RegisterUser',
            data: {
              userId,
              email: `live-${userId}@example.test`,
              givenName: 'Live',
              familyName: `Client ${userId}`,
              authProvider: null,
              passwordHash: null,
              emailVerified: true,
              emailInUse: false,
            },
            now,
            actor,
          },
        },
        gateway.writeSide,
      );
      await handleCommand(
        userDecider,
        {
          streamId: userStream(userId),
          commandId: `live-join-${userId}`,
          command: {
            type: 'JoinCreatedTenant',
            data: { tenantId, tenantClassification: 'BUSINESS' },
            now,
            actor,
          },
        },
        gateway.writeSide,
      );
      members.push({ userId, tenantId });
    }
  }
  return members;
};

/** Waits until every projector has what the event store holds (the clients' membership checks read it). */
const projected = async (gateway: Gateway) => {
  const head = await gateway.writeSide.store.headPosition();
  while (gateway.processors.some((processor) => processor.status().checkpoint < head)) await sleep(50);
};

/** A session per member, as sign-in would store it, and the cookie a browser would send. */
const sessionsOf = async (gateway: Gateway, members: { userId: number; tenantId: number }[]) => {
  const specs: ClientSpec[] = [];
  for (const { userId, tenantId } of members) {
    const { token } = await gateway.services.sessions.create(
      { userId, tenantId, resetPasswordRequired: false },
      new Date(),
    );
    specs.push({ tenantId, cookie: `${sessionCookie}=${token}` });
  }
  return specs;
};

type Change = { tenantId: number; position: number; issuedAt: number };

/** Renames each tenant in turn, one change at a time, `gapMs` apart so each fan-out stands alone. */
const renameEach = async (gateway: Gateway, tenantIds: number[], gapMs: number): Promise<Change[]> => {
  const changes: Change[] = [];
  for (const [i, tenantId] of tenantIds.entries()) {
    const issuedAt = wallClock();
    const renamed = await handleCommand(
      tenantDecider,
      {
        streamId: tenantStream(tenantId),
        commandId: `live-rename-${tenantId}-${i}`,
        command: {
          type: 'RenameTenant',
          data: { name: `Renamed ${i}` },
          now: new Date(),
          actor: systemActor,
        },
      },
      gateway.writeSide,
    );
    changes.push({ tenantId, position: renamed.position, issuedAt });
    await sleep(gapMs);
  }
  return changes;
};

/** Command-to-arrival latencies of the changes' notices, and what went where it should not have. */
const latencies = (changes: Change[], arrivals: Arrival[], clientsOf: (tenantId: number) => number) => {
  const byPosition = new Map(changes.map((change) => [change.position, change]));
  const sample: number[] = [];
  let foreign = 0;
  for (const arrival of arrivals) {
    if (arrival.noticeTenantId !== arrival.tenantId) foreign += 1;
    const change = byPosition.get(arrival.position);
    if (change && arrival.noticeTenantId === change.tenantId) sample.push(arrival.at - change.issuedAt);
  }
  const expected = changes.reduce((sum, change) => sum + clientsOf(change.tenantId), 0);
  return { sample, foreign, missing: expected - sample.length };
};

export const suite: BenchSuite = {
  name: 'live',
  description:
    'command-to-notice latency on /api/live with many clients of many tenants, beside the same change with one client',
  params: { tenants: 100, clients: 1000, changes: 30, gapMs: 200 },
  run: async (params, { log }) => {
    const { tenants = 100, clients = 1000, changes = 30, gapMs = 200 } = params;
    const usersPerTenant = Math.ceil(clients / tenants);
    const gateway = await startGateway({ live: true });
    const children = startClients();
    try {
      const url = `ws://127.0.0.1:${gateway.port}/api/live`;
      const origin = new URL(gateway.config.PUBLIC_URL).origin;
      log(
        `${tenants} tenants of ${usersPerTenant} users, and one of a single user, through the command handler`,
      );
      const started = Date.now();
      const members = await createTenants(gateway, 1, tenants, usersPerTenant);
      const loneTenant = tenants + 1;
      const lone = await createTenants(gateway, loneTenant, 1, 1);
      await projected(gateway);
      log(`  in ${((Date.now() - started) / 1000).toFixed(1)} s`);

      log('baseline: one client connected');
      await children.connect(url, origin, await sessionsOf(gateway, lone));
      await sleep(500);
      await children.report();
      const baselineChanges = await renameEach(gateway, Array(changes).fill(loneTenant) as number[], gapMs);
      await sleep(1000);
      const baseline = latencies(baselineChanges, (await children.report()).arrivals, () => 1);

      log(`${clients} clients of ${tenants} tenants`);
      const specs = (await sessionsOf(gateway, members)).slice(0, clients);
      const perTenant = new Map<number, number>();
      for (const spec of specs) perTenant.set(spec.tenantId, (perTenant.get(spec.tenantId) ?? 0) + 1);
      perTenant.set(loneTenant, 1);
      const rssBeforeMiB = process.memoryUsage().rss / 2 ** 20;
      const { result: fanOut, peakMiB } = await measurePeakRss(async () => {
        await children.connect(url, origin, specs);
        await sleep(1000);
        await children.report();
        // A different tenant each time, so most tenants' clients see no change at all.
        const renamed = Array.from({ length: changes }, (_, i) => (i % tenants) + 1);
        const fanOutChanges = await renameEach(gateway, renamed, gapMs);
        await sleep(1000);
        const report = await children.report();
        if (report.closed > 0) log(`  ${report.closed} sockets closed during the run`);
        return latencies(fanOutChanges, report.arrivals, (tenantId) => perTenant.get(tenantId) ?? 0);
      });

      // The suite's own checks: nothing crossed tenants, and every notice reached every watcher.
      for (const [name, run] of [
        ['baseline', baseline],
        ['fan-out', fanOut],
      ] as const) {
        log(
          `${name}: ${run.sample.length} notices, ${run.missing} missing, ${run.foreign} of another tenant`,
        );
        if (run.foreign > 0)
          throw new Error(`${name}: ${run.foreign} notices reached clients of another tenant`);
        if (run.missing !== 0) throw new Error(`${name}: ${run.missing} notices missing or unexpected`);
      }
      log(`gateway process peak RSS during the fan-out: ${peakMiB.toFixed(0)} MiB`);

      const figures: Figure[] = [
        {
          name: `command to notice p99, ${clients} clients of ${tenants} tenants`,
          unit: 'ms',
          value: percentile(fanOut.sample, 99),
          baseline: { name: 'p99 with one client', value: percentile(baseline.sample, 99) },
          higherIsBetter: false,
          target: { kind: 'absolute', op: '<=', value: 100, source: 'issue 13' },
        },
        {
          name: `command to notice p50, ${clients} clients of ${tenants} tenants`,
          unit: 'ms',
          value: percentile(fanOut.sample, 50),
          baseline: { name: 'p50 with one client', value: percentile(baseline.sample, 50) },
          higherIsBetter: false,
        },
        {
          name: 'gateway peak RSS with the clients connected',
          unit: 'MiB',
          value: peakMiB,
          baseline: { name: 'RSS before they connected', value: rssBeforeMiB },
          higherIsBetter: false,
        },
      ];
      return figures;
    } finally {
      children.close();
      await gateway.close();
    }
  },
};
