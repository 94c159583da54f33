/** What replaces a secret's value in an admin's view; null stays null, so "no password set" still shows. */
export const redacted = '[redacted]';

/**
 * Field names that hold secrets or what stands for one: hashes of passwords and tokens (an offline
 * guess needs only the hash), tokens, secrets, keys, passwords and credentials. Matched on the name's
 * end, so `authTokenStatus` or `passwordResetRequired` stay readable.
 */
const secretName =
  /(hash|token|tokens|secret|secrets|password|credential|credentials|apikey|privatekey|signingkey|^key)$/i;

export const isSecretField = (name: string): boolean => secretName.test(name);

/**
 * A deep copy of a value with every secret field's value replaced, at any depth (arrays and objects
 * included); Dates and other non-plain values are kept as they are.
 */
export const redactSecrets = <T>(value: T): T => {
  if (Array.isArray(value)) return value.map((item: unknown) => redactSecrets(item)) as T;
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype)
    return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, field]) => [
      name,
      isSecretField(name) && field !== null && field !== undefined ? redacted : redactSecrets(field),
    ]),
  ) as T;
};
