import { useAdminTenantDetails } from '../../../api/queries/admin-tenants';
import { TextLink } from '../../../components/text-link';
import { tableTexts } from '../../../table/empty-texts';
import { classificationLabels } from './tenant-rules';

/** A tenant with neither users nor sellers (admin.md section 2: a short notice). */
export const emptyTenantNotice = 'This tenant has no users and no sellers.';

const Section = ({ title, children }: { title: string; children: React.ReactNode }) => (
  <section className="min-w-0 flex-1 space-y-1">
    <h3 className="text-sm font-semibold text-gray-900">{title}</h3>
    {children}
  </section>
);

const None = () => <p className="text-sm text-gray-600">None</p>;

/** The expanded row of the admin tenants list: its Users, Sellers and Linked Tenants. */
export const TenantDetails = ({ tenantId }: { tenantId: number }) => {
  const details = useAdminTenantDetails(tenantId);
  if (details.isError)
    return (
      <p role="alert" className="text-sm text-red-700">
        {details.error.message}
      </p>
    );
  if (!details.data) return <p role="status">{tableTexts.loading}</p>;
  const { users, sellers, linkedTenants } = details.data;
  return (
    <div className="space-y-3" data-testid={`tenant-details-${tenantId}`}>
      {users.length === 0 && sellers.length === 0 && (
        <p className="text-sm font-medium text-gray-800">{emptyTenantNotice}</p>
      )}
      <div className="flex flex-col gap-4 md:flex-row">
        <Section title="Users">
          {users.length === 0 ? (
            <None />
          ) : (
            <ul className="space-y-1 text-sm text-gray-800">
              {users.map((user) => (
                <li key={user.Id}>
                  {user.Name} ({user.Email ?? 'no email'}), {user.Role}, id {user.Id}
                </li>
              ))}
            </ul>
          )}
        </Section>
        <Section title="Sellers">
          {sellers.length === 0 ? (
            <None />
          ) : (
            <ul className="space-y-1 text-sm text-gray-800">
              {sellers.map((seller) => (
                <li key={seller.Id}>
                  {seller.CompanyName ?? `${seller.Provider} seller`} (id {seller.Id}), {seller.Provider},{' '}
                  {seller.Active ? 'active' : 'inactive'}
                </li>
              ))}
            </ul>
          )}
        </Section>
        <Section title="Linked Tenants">
          {linkedTenants.length === 0 ? (
            <None />
          ) : (
            <ul className="space-y-1 text-sm text-gray-800">
              {linkedTenants.map((linked) => (
                <li key={linked.Id}>
                  <TextLink to={`/admin/tenants/${linked.Id}`}>
                    {linked.Name} ({linked.Id})
                  </TextLink>{' '}
                  {classificationLabels[linked.Classification]},{' '}
                  {linked.link === 'client' ? 'a client of this tenant' : 'this tenant’s advisory firm'}
                </li>
              ))}
            </ul>
          )}
        </Section>
      </div>
    </div>
  );
};
