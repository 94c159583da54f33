import { screen, within } from '@testing-library/react';

/**
 * The error a field announces with itself (its aria-describedby), or null: a message is "against its
 * field" only when a screen reader would read it with that field, not just somewhere on the page.
 */
export const fieldErrorOf = (label: string, container?: HTMLElement): string | null => {
  const field = (container ? within(container) : screen).getByLabelText(label);
  if (field.getAttribute('aria-invalid') !== 'true') return null;
  const described = (field.getAttribute('aria-describedby') ?? '').split(' ');
  const errorId = described.find((id) => id.endsWith('-error'));
  return errorId ? (document.getElementById(errorId)?.textContent ?? null) : null;
};
