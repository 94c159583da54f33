import { useEffect, useRef, useState } from 'react';
import { logoutReasons } from '../api/error-catalogue';
import { sessionKey } from '../api/queries/session';
import { useAppServices } from './app-services-context';
import { idlePhase, type IdlePhase } from './idle-phase';
import { endSession } from './session-actions';

const activityEvents = ['mousemove', 'mousedown', 'keydown', 'touchstart', 'wheel', 'scroll'] as const;
/**
 * Activity tells the server the user is still there at most this often (the session's idle clock is
 * the server's). With the server moving its deadline on a request at most every 30 s
 * (gateway/auth/session-store.ts), its deadline trails the last activity by under 60 s, so the
 * server never ends the session before this page has shown the one-minute warning.
 */
const keepAliveEveryMs = 30_000;
const checkEveryMs = 1_000;

/**
 * Logs the user out with reason Session Idle after the session's idle timeout without activity, and
 * returns the phase so the shell can show the warning banner in the last minute. Activity clears it.
 */
export const useIdleLogout = (timeoutSeconds: number): IdlePhase => {
  const services = useAppServices();
  const [phase, setPhase] = useState<IdlePhase>('active');
  const [mountedAt] = useState(Date.now);
  const lastActivity = useRef(mountedAt);
  const lastKeepAlive = useRef(mountedAt);

  useEffect(() => {
    const timeoutMs = timeoutSeconds * 1000;
    const onActivity = () => {
      const now = Date.now();
      lastActivity.current = now;
      setPhase((current) => (current === 'warning' ? 'active' : current));
      if (now - lastKeepAlive.current >= keepAliveEveryMs) {
        lastKeepAlive.current = now;
        void services.queryClient.invalidateQueries({ queryKey: sessionKey });
      }
    };
    let ended = false;
    const check = () => {
      const next = idlePhase({ now: Date.now(), lastActivityAt: lastActivity.current, timeoutMs });
      setPhase(next);
      if (next === 'expired' && !ended) {
        ended = true;
        void endSession(services, { reason: logoutReasons.sessionIdle });
      }
    };
    for (const name of activityEvents) window.addEventListener(name, onActivity, { passive: true });
    const timer = window.setInterval(check, checkEveryMs);
    return () => {
      for (const name of activityEvents) window.removeEventListener(name, onActivity);
      window.clearInterval(timer);
    };
  }, [services, timeoutSeconds]);

  return phase;
};
