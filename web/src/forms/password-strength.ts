export type PasswordStrength = { score: 0 | 1 | 2 | 3 | 4; label: string };

const labels = ['Too weak', 'Weak', 'Fair', 'Good', 'Strong'] as const;

/**
 * A rough strength for the meter on registration and reset: length and variety of characters. The
 * rule itself (8 to 128, digit, lower and upper case) is the contract's Password schema.
 */
export const passwordStrength = (password: string): PasswordStrength => {
  if (password.length < 8) return { score: 0, label: labels[0] };
  const kinds = [/\d/, /[a-z]/, /[A-Z]/, /[^\da-zA-Z]/].filter((kind) => kind.test(password)).length;
  const lengthBonus = password.length >= 16 ? 2 : password.length >= 12 ? 1 : 0;
  const score = Math.min(4, Math.max(1, kinds - 1 + lengthBonus)) as PasswordStrength['score'];
  return { score, label: labels[score] };
};
