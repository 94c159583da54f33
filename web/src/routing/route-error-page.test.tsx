/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { RouteErrorPage } from './route-error-page';

const renderFailing = (error: Error) => {
  const Failing = () => {
    throw error;
  };
  const router = createMemoryRouter([{ path: '/', element: <Failing />, errorElement: <RouteErrorPage /> }]);
  render(<RouterProvider router={router} />);
};

describe('the route error page', () => {
  beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it("says the servers could not be reached when a page's code cannot be fetched, and offers a reload", () => {
    renderFailing(new TypeError('Failed to fetch dynamically imported module: /assets/team-page-x1.js'));
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain(
      'The operation failed to reach our servers. Please check your connection and try again.',
    );
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
  });

  it('takes the blame for any other failure', () => {
    renderFailing(new Error('Cannot read properties of undefined'));
    expect(screen.getByRole('alert').textContent).toContain(
      "The operation failed. It's our fault, not yours. We're actively looking into the problem.",
    );
  });
});
