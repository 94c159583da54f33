// The DOM matchers of Testing Library (toBeInTheDocument, toHaveTextContent, toBeDisabled...) for every
// web test: a failure then names what was expected of the element, not just "expected true".
import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';

// jsdom has no ResizeObserver, which recharts' ResponsiveContainer (the dashboard's bar chart) needs;
// in jsdom the chart has no size to observe, so an observer that never reports is faithful.
class ResizeObserverStub {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;

// The web tests share two cores with the integration project, whose servers can starve them for
// seconds; Testing Library's 1 s default for findBy/waitFor then fails tests that are right. A
// longer bound only waits longer for what does appear; a missing element still fails the test.
configure({ asyncUtilTimeout: 5000 });

// Whole-app renders share two cores with the integration servers; 5 s ran out for right tests.
// Set here because jest 30 ignores a per-project `testTimeout`.
jest.setTimeout(30_000);
