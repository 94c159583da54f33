import type { MongoLease } from './mongo-lease';
import type { ProcessorStatus, ProjectionProcessor } from './projection-processor';

/** Leases of projections: a dead projector's projections move to another within about this long. */
export const projectionLeaseMs = 15_000;

type LeaseLogger = {
  info: (fields: object, message: string) => void;
  warn: (fields: object, message: string) => void;
};

export type LeasedProjectionStatus =
  { role: 'active'; processor: ProcessorStatus } | { role: 'standby'; activeIn: string | null };

/**
 * One projection in a projector process that may run beside others (docs/DEPLOY.md): it processes
 * only while it holds the projection's lease, renewing it a few times per lease period; the others
 * stand by and try to take it. Each time it becomes active it starts a fresh processor, which loads the
 * checkpoint the previous holder left. A holder that loses its lease (it stalled past the expiry) stops;
 * a batch it was still writing is harmless, as writes are idempotent and position-guarded.
 */
export class LeasedProjection {
  private processor: ProjectionProcessor | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private tick: Promise<void> = Promise.resolve();

  constructor(
    private readonly options: {
      name: string;
      lease: MongoLease;
      createProcessor: () => ProjectionProcessor;
      renewEveryMs: number;
      logger: LeaseLogger;
    },
  ) {}

  start(): void {
    const loop = () => {
      this.tick = this.step()
        .catch((error: unknown) =>
          this.options.logger.warn(
            { projection: this.options.name, err: error },
            'projection lease check failed',
          ),
        )
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(loop, this.options.renewEveryMs);
        });
    };
    loop();
  }

  private async step(): Promise<void> {
    const { lease, name, logger } = this.options;
    if (this.processor) {
      if (await lease.renew()) return;
      logger.warn({ projection: name }, 'projection lease lost; standing by');
      const processor = this.processor;
      this.processor = undefined;
      await processor.stop();
      return;
    }
    if (this.stopped || !(await lease.tryAcquire())) return;
    logger.info({ projection: name }, 'projection lease taken; processing');
    this.processor = this.options.createProcessor();
    this.processor.start();
  }

  async status(): Promise<LeasedProjectionStatus> {
    if (this.processor) return { role: 'active', processor: this.processor.status() };
    return { role: 'standby', activeIn: (await this.options.lease.holderNow())?.holder ?? null };
  }

  /** Stops processing (the checkpoint then reflects every write) and frees the lease for another. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.tick;
    const processor = this.processor;
    this.processor = undefined;
    if (processor) {
      await processor.stop();
      await this.options.lease.release();
    }
  }
}
