import { passwordStrength } from './password-strength';

const colours = ['bg-red-500', 'bg-orange-500', 'bg-yellow-500', 'bg-lime-500', 'bg-emerald-600'];

/** Shown under the new-password field on registration and reset (portal.md section 5). */
export const PasswordStrengthMeter = ({ password }: { password: string }) => {
  const { score, label } = passwordStrength(password);
  return (
    <div className="space-y-1" aria-live="polite">
      <div
        role="meter"
        aria-label="Password strength"
        aria-valuemin={0}
        aria-valuemax={4}
        aria-valuenow={score}
        aria-valuetext={label}
        className="flex gap-1"
      >
        {[1, 2, 3, 4].map((step) => (
          <span
            key={step}
            className={`h-1.5 flex-1 rounded ${password && score >= step ? colours[score] : 'bg-gray-200'}`}
          />
        ))}
      </div>
      {password && <p className="text-xs text-gray-600">Password strength: {label}</p>}
    </div>
  );
};
