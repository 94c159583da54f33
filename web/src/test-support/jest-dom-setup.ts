// The DOM matchers of Testing Library (toBeInTheDocument, toHaveTextContent, toBeDisabled...) for every
// web test: a failure then names what was expected of the element, not just "expected true".
import '@testing-library/jest-dom';
