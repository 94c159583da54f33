/** The error catalogue's general texts (portal.md section 8) for failures that carry no usable message. */
export const errorCatalogue = {
  internal: "The operation failed. It's our fault, not yours. We're actively looking into the problem.",
  unavailable: 'The operation failed. Please try again.',
  failedFetch: 'The operation failed to reach our servers. Please check your connection and try again.',
  default: 'The operation failed. Please validate your selection and try again.',
} as const;

/** The reasons a session ends, sent to GET /api/auth/logout?reason= and shown on the login page. */
export const logoutReasons = {
  accessDenied: 'Access Denied',
  sessionIdle: 'Session Idle',
} as const;

export const idleWarningText = 'Your session is about to expire in 1 minute due to inactivity.';
