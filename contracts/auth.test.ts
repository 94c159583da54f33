import { LoginRequest, Password, passwordRuleMessage } from './auth';

const problemOf = (value: unknown) => {
  const result = Password.safeParse(value);
  return result.success ? null : result.error.issues[0]?.message;
};

describe('password rule (portal.md section 5)', () => {
  it('accepts 8 to 128 characters with a digit, a lower-case and an upper-case letter', () => {
    expect(problemOf('Receivable5')).toBeNull();
    expect(problemOf(`Aa1${'x'.repeat(125)}`)).toBeNull();
  });

  it('names the failure the way the spec does', () => {
    expect(problemOf('')).toBe('Password is required');
    expect(problemOf('Ab1')).toBe('The supplied value is too short.');
    expect(problemOf('receivables1')).toBe(passwordRuleMessage);
    expect(problemOf('RECEIVABLES1')).toBe(passwordRuleMessage);
    expect(problemOf('Receivables')).toBe(passwordRuleMessage);
    expect(problemOf(`Aa1${'x'.repeat(126)}`)).toBe(passwordRuleMessage);
  });

  it('requires both login fields and rejects unknown ones', () => {
    expect(LoginRequest.safeParse({ email: 'a@b.co', password: 'x' }).success).toBe(true);
    const missing = LoginRequest.safeParse({ email: '', password: '' });
    expect(missing.success ? [] : missing.error.issues.map((i) => i.message)).toEqual([
      'Email is required',
      'Password is required',
    ]);
    expect(LoginRequest.safeParse({ email: 'a@b.co', password: 'x', admin: true }).success).toBe(false);
  });
});
