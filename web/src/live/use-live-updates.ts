import { useEffect, useRef } from 'react';
import type { SessionResponse } from '../../../contracts/auth';
import { sessionKey } from '../api/queries/session';
import { useAppServices } from '../session/app-services-context';
import { applyLiveMessage } from './apply-live-message';
import { LiveSocket, liveUrlOf } from './live-socket';

/**
 * Opens the tab's one live socket for the signed-in user, follows tenant switches and closes it on
 * logout. Mounted once, in the signed-in shell.
 */
export const useLiveUpdates = (session: SessionResponse): void => {
  const services = useAppServices();
  const userId = session.user.Id;
  const tenantId = session.tenant?.Id ?? null;
  const who = useRef({ userId, tenantId });
  const socket = useRef<LiveSocket | null>(null);
  // Before the socket effects below: a message after a switch is read against the new tenant.
  useEffect(() => {
    who.current = { userId, tenantId };
  }, [userId, tenantId]);

  useEffect(() => {
    const create = services.openLiveSocket;
    if (!create) return;
    const live = new LiveSocket({
      urlOf: liveUrlOf,
      createSocket: create,
      onMessage: (message, context) =>
        applyLiveMessage(
          {
            queryClient: services.queryClient,
            store: () => services.clientState.store(),
            who: () => who.current,
          },
          message,
          context,
        ),
      // Rechecking the session lets the guard log out and send the user to the login page.
      onSessionEnded: () => void services.queryClient.invalidateQueries({ queryKey: sessionKey }),
    });
    socket.current = live;
    live.watch(who.current.tenantId);
    live.start();
    return () => {
      live.stop();
      socket.current = null;
    };
  }, [services, userId]);

  useEffect(() => {
    socket.current?.watch(tenantId);
  }, [tenantId]);
};
