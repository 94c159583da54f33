import { Navigate } from 'react-router';
import { useConnectedSellers } from '../api/queries/platforms';
import { PlaceholderPage } from './placeholder-page';

/** /reports needs a connected seller; without one the user goes to / (portal.md section 2.1). */
export const ReportsPage = () => {
  const sellers = useConnectedSellers();
  if (sellers.isPending) return <p className="p-4 text-sm text-gray-600">Loading...</p>;
  if ((sellers.data?.rows.length ?? 0) === 0) return <Navigate to="/" replace />;
  return <PlaceholderPage title="Reports" note="Reports come in a later issue." />;
};
