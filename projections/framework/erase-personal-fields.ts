import { ERASED } from '../../commands/personal-data';
import type { DocumentFields, ReadModelWrite } from './projection';

/**
 * Writes that leave a read model's copies of erased personal data as a rebuild after the erasure reads
 * them (docs/adr/0005-personal-data.md): every listed field that holds a value becomes ERASED. Fields
 * holding null stay null, because only present values are encrypted, so only they read back erased.
 */
export const erasePersonalFields = <C extends string>(
  collection: C,
  filter: DocumentFields,
  fields: readonly string[],
): ReadModelWrite<C>[] =>
  fields.map((field) => ({
    kind: 'update',
    collection,
    filter: { ...filter, [field]: { $ne: null } },
    fields: { [field]: ERASED },
  }));
