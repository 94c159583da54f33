import { Button } from '@tremor/react';
import { useState } from 'react';
import { useLocation } from 'react-router';
import {
  UnsubscribeResponse,
  invalidUnsubscribeLinkMessage,
  type UnsubscribeFrequency,
} from '../../../../contracts/api/report-unsubscribe';
import { ApiError } from '../../api/api-error';
import { AuthLayout } from '../../components/auth-layout';
import { ErrorCallout, SuccessCallout } from '../../components/error-callout';
import { TextLink } from '../../components/text-link';
import { useAppServices } from '../../session/app-services-context';

const failed = 'There was an error processing this request.';

/**
 * The token names its frequency in the clear (`<recipient>.<w|m>.<signature>`, workflows/reports/email/
 * unsubscribe-token.ts); the page reads it only to word its button. The server verifies everything.
 */
const frequencyOf = (token: string | null): UnsubscribeFrequency | null => {
  const match = token ? /^\d+\.([wm])\.[\w-]+$/.exec(token) : null;
  return match ? (match[1] === 'w' ? 'weekly' : 'monthly') : null;
};

type Phase =
  | { kind: 'ready' }
  | { kind: 'sending' }
  | { kind: 'done'; message: string }
  | { kind: 'failed'; message: string };

/**
 * /unsubscribe?token=...: where a report email's "Stop receiving the weekly report" link lands
 * (docs/adr/0037-report-sheets-and-email.md). Nothing changes on opening, so a mail scanner that
 * follows links stops nothing; the one button posts the token (with the anti-forgery header, no
 * session needed) and the recipient's weekly or monthly sending turns off.
 */
export const UnsubscribePage = () => {
  const services = useAppServices();
  const location = useLocation();
  const [token] = useState(() => new URLSearchParams(location.search).get('token'));
  const frequency = frequencyOf(token);
  const [phase, setPhase] = useState<Phase>({ kind: 'ready' });

  if (!token || !frequency) {
    return (
      <AuthLayout title="Unsubscribe">
        <ErrorCallout message={invalidUnsubscribeLinkMessage} />
        <TextLink to="/login">Log in</TextLink>
      </AuthLayout>
    );
  }

  const stop = async () => {
    setPhase({ kind: 'sending' });
    try {
      const answer = await services.api.request('/api/subscriptions/unsubscribe', {
        method: 'POST',
        body: { token },
        schema: UnsubscribeResponse,
        authFailure: 'throw',
      });
      setPhase({ kind: 'done', message: answer.message });
    } catch (error) {
      setPhase({ kind: 'failed', message: error instanceof ApiError ? error.message : failed });
    }
  };

  if (phase.kind === 'done') {
    return (
      <AuthLayout title="Unsubscribed">
        <SuccessCallout message={phase.message} />
        <p className="text-gray-700">
          You can turn the {frequency} report back on at any time on the Reports page.
        </p>
        <TextLink to="/reports">Go to Reports</TextLink>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Unsubscribe">
      <p className="text-gray-700">
        Stop receiving the {frequency} report by email? The other reports you receive are not affected.
      </p>
      <ErrorCallout message={phase.kind === 'failed' ? phase.message : null} />
      <Button loading={phase.kind === 'sending'} onClick={() => void stop()}>
        {`Stop receiving the ${frequency} report`}
      </Button>
    </AuthLayout>
  );
};
