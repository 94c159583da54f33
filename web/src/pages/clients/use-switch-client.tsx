import { Button } from '@tremor/react';
import { useState } from 'react';
import { ModalDialog } from '../../components/modal-dialog';
import { useAppServices } from '../../session/app-services-context';
import { switchToTenant } from '../../session/session-actions';

export const switchClientFailed = 'There was an error while switching clients.';

/** Switching to a client: the session is replaced and the dashboard opens; a failure opens Switch Client. */
export const useSwitchClient = () => {
  const services = useAppServices();
  const [failed, setFailed] = useState(false);
  const [switching, setSwitching] = useState<number | null>(null);

  const switchTo = async (tenantId: number) => {
    setSwitching(tenantId);
    try {
      await switchToTenant(services, { tenantId, to: '/overview' });
    } catch {
      setFailed(true);
      setSwitching(null);
    }
  };

  const failureDialog = (
    <ModalDialog open={failed} title="Switch Client" role="alertdialog" onClose={() => setFailed(false)}>
      <p className="text-sm text-gray-700">{switchClientFailed}</p>
      <div className="flex justify-end">
        <Button type="button" onClick={() => setFailed(false)}>
          Close
        </Button>
      </div>
    </ModalDialog>
  );

  return { switchTo, switching, failureDialog };
};
