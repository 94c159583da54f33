import type { z } from 'zod';
import { AppError } from '../contracts/errors';
import { BillingEvent, billingEventVersions, billingPersonalDataFields } from '../contracts/events/billing';
import {
  IdAllocationEvent,
  idAllocationEventVersions,
  idAllocationPersonalDataFields,
} from '../contracts/events/id-allocation';
import {
  IntegrationEvent,
  integrationEventVersions,
  integrationPersonalDataFields,
} from '../contracts/events/integration';
import {
  InviteEvent,
  inviteEventUpcasters,
  inviteEventVersions,
  invitePersonalDataFields,
} from '../contracts/events/invite';
import {
  RecipientEvent,
  recipientEventVersions,
  recipientPersonalDataFields,
} from '../contracts/events/recipient';
import { JobEvent, jobEventVersions, jobPersonalDataFields } from '../contracts/events/job';
import { PartnerEvent, partnerEventVersions, partnerPersonalDataFields } from '../contracts/events/partner';
import { PlanEvent, planEventVersions, planPersonalDataFields } from '../contracts/events/plan';
import { SellerEvent, sellerEventVersions, sellerPersonalDataFields } from '../contracts/events/seller';
import { TenantEvent, tenantEventVersions, tenantPersonalDataFields } from '../contracts/events/tenant';
import { UserEvent, userEventVersions, userPersonalDataFields } from '../contracts/events/user';

/**
 * Every event type the write side may append or read, with its contract (contracts/events/*.ts): the
 * payload schema, the current schema version, the personal-data fields and the upcasters that bring
 * an older stored version up to the current one.
 */

/** Turns the data of version n into the data of version n + 1. */
export type Upcaster = (data: unknown) => unknown;

/** A member of an aggregate's discriminated union: `z.object({ type: z.literal(...), data })`. */
type EventObjectSchema = { shape: { type: { value: unknown }; data: z.ZodType } };

/** What each aggregate's contract file exports, gathered into one entry. */
export type AggregateEvents<Type extends string = string> = {
  events: { options: readonly EventObjectSchema[] };
  versions: Readonly<Record<Type, number>>;
  personalDataFields: Readonly<Record<Type, readonly string[]>>;
  /** Per event type, keyed by the version each function upcasts from. */
  upcasters?: Readonly<Partial<Record<Type, Readonly<Record<number, Upcaster>>>>>;
};

export type EventDefinition = {
  type: string;
  schemaVersion: number;
  /** The schema of the payload (`data`). */
  schema: z.ZodType;
  personalDataFields: readonly string[];
  /** Index i upcasts version i + 1 to version i + 2. */
  upcasters: readonly Upcaster[];
};

export type EventRegistry = {
  definitionOf: (type: string) => EventDefinition | undefined;
  types: () => string[];
};

/** One aggregate's exports as a registry entry; add `upcasters` to the result when a version is bumped. */
export const aggregateEvents = <Type extends string>(
  events: AggregateEvents<Type>['events'],
  versions: AggregateEvents<Type>['versions'],
  personalDataFields: AggregateEvents<Type>['personalDataFields'],
): AggregateEvents<Type> => ({ events, versions, personalDataFields });

const definitionsOf = (aggregate: AggregateEvents): EventDefinition[] =>
  aggregate.events.options.map((option) => {
    const type = option.shape.type.value;
    if (typeof type !== 'string') throw new Error('An event schema needs a literal string type');
    const schemaVersion = aggregate.versions[type];
    const personalDataFields = aggregate.personalDataFields[type];
    if (schemaVersion === undefined || personalDataFields === undefined)
      throw new Error(`Event ${type} is missing from its aggregate's versions or personal-data fields`);
    const declared = aggregate.upcasters?.[type] ?? {};
    const upcasters: Upcaster[] = [];
    for (let from = 1; from < schemaVersion; from += 1) {
      const upcaster = declared[from];
      // Checked at start-up, so a version bump without its upcaster never reaches a read.
      if (!upcaster) throw new Error(`Event ${type} v${schemaVersion} has no upcaster from v${from}`);
      upcasters.push(upcaster);
    }
    return { type, schemaVersion, schema: option.shape.data, personalDataFields, upcasters };
  });

export const createEventRegistry = (aggregates: readonly AggregateEvents[]): EventRegistry => {
  const byType = new Map<string, EventDefinition>();
  for (const definition of aggregates.flatMap(definitionsOf)) {
    if (byType.has(definition.type)) throw new Error(`Event type ${definition.type} is registered twice`);
    byType.set(definition.type, definition);
  }
  return { definitionOf: (type) => byType.get(type), types: () => [...byType.keys()] };
};

/** The registry of the application: one line per aggregate (contracts/events/<aggregate>.ts). */
export const eventRegistry = createEventRegistry([
  aggregateEvents(TenantEvent, tenantEventVersions, tenantPersonalDataFields),
  aggregateEvents(UserEvent, userEventVersions, userPersonalDataFields),
  {
    ...aggregateEvents(InviteEvent, inviteEventVersions, invitePersonalDataFields),
    upcasters: inviteEventUpcasters,
  },
  aggregateEvents(SellerEvent, sellerEventVersions, sellerPersonalDataFields),
  aggregateEvents(IntegrationEvent, integrationEventVersions, integrationPersonalDataFields),
  aggregateEvents(RecipientEvent, recipientEventVersions, recipientPersonalDataFields),
  aggregateEvents(PartnerEvent, partnerEventVersions, partnerPersonalDataFields),
  aggregateEvents(BillingEvent, billingEventVersions, billingPersonalDataFields),
  aggregateEvents(PlanEvent, planEventVersions, planPersonalDataFields),
  aggregateEvents(JobEvent, jobEventVersions, jobPersonalDataFields),
  aggregateEvents(IdAllocationEvent, idAllocationEventVersions, idAllocationPersonalDataFields),
]);

const definitionOrFail = (registry: EventRegistry, type: string): EventDefinition => {
  const definition = registry.definitionOf(type);
  if (!definition)
    throw new AppError('internal', 'Something went wrong.', { message: `Unknown event type ${type}` });
  return definition;
};

/**
 * The payload as its contract parses it, or a validation error naming the bad fields. A decider
 * should have refused bad input itself; this is the last guard before the data becomes permanent.
 */
export const validatedPayload = (registry: EventRegistry, event: { type: string; data: unknown }) => {
  const definition = definitionOrFail(registry, event.type);
  const parsed = definition.schema.safeParse(event.data);
  if (parsed.success) return { data: parsed.data, schemaVersion: definition.schemaVersion };
  const properties = Object.fromEntries(
    parsed.error.issues.map((issue) => [issue.path.map(String).join('.') || '(root)', issue.message]),
  );
  throw new AppError('validation', 'Some fields are not valid.', {
    message: `Event ${event.type} failed its schema: ${parsed.error.message}`,
    properties,
  });
};

/** Brings stored data of an older schema version up to the current one. */
export const upcastPayload = (
  registry: EventRegistry,
  event: { type: string; schemaVersion: number; data: unknown },
): unknown => {
  const definition = definitionOrFail(registry, event.type);
  if (event.schemaVersion > definition.schemaVersion)
    throw new Error(
      `Event ${event.type} v${event.schemaVersion} is newer than this program knows (v${definition.schemaVersion})`,
    );
  return definition.upcasters
    .slice(event.schemaVersion - 1)
    .reduce((data, upcast) => upcast(data), event.data);
};
