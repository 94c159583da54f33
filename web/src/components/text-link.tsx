import type { ComponentProps } from 'react';
import { Link } from 'react-router';

const classes =
  'font-medium text-blue-700 underline-offset-2 hover:underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 rounded';

/** An in-app link with the app's visible focus ring. */
export const TextLink = (props: ComponentProps<typeof Link>) => <Link {...props} className={classes} />;

/** A link that leaves the single-page app (the API's browser redirects). */
export const ExternalLink = (props: ComponentProps<'a'>) => <a {...props} className={classes} />;
