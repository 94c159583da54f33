/**
 * A short random pause before retrying after a write conflict, growing with the attempt (up to 20 ms),
 * so that writers that keep colliding on one stream spread out instead of colliding again in step.
 */
export const backOff = (attempt: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(attempt, 20)));
