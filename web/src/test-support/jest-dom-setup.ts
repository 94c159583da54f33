// The DOM matchers of Testing Library (toBeInTheDocument, toHaveTextContent, toBeDisabled...) for every
// web test: a failure then names what was expected of the element, not just "expected true".
import '@testing-library/jest-dom';

// jsdom has no ResizeObserver, which recharts' ResponsiveContainer (the dashboard's bar chart) needs;
// in jsdom the chart has no size to observe, so an observer that never reports is faithful.
class ResizeObserverStub {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
