import { Card } from '@tremor/react';
import { useState, type ReactNode } from 'react';
import type { AssetInvoice } from '../../../../contracts/api/receivables';
import { useCustomerInvoices } from '../../api/queries/receivables';
import { TextField } from '../../forms/text-field';
import type { DataColumn } from '../../table/data-columns';
import { DataTable } from '../../table/data-table';
import { moneyFormatter } from '../dashboard/receivables-figures';
import { PageFrame } from '../dashboard/stat-card';
import { CustomerTransactionChart } from '../sellers/customer-transaction-chart';
import { transactionDay } from '../sellers/customer-transactions';
import { useDebouncedValue } from '../sellers/use-debounced-value';

// The explorers of admin.md section 2 (development builds only, see app-routes.tsx): any seller's
// customer by ids, for checking the metrics by eye while building them.

const money = moneyFormatter('USD');
const idOf = (text: string) => (/^\d{1,10}$/.test(text.trim()) ? Number(text.trim()) : null);

const CustomerPicker = ({
  title,
  children,
}: {
  title: string;
  children: (input: { sellerId: number; customerId: number }) => ReactNode;
}) => {
  const [seller, setSeller] = useState('');
  const [customer, setCustomer] = useState('');
  const sellerId = idOf(useDebouncedValue(seller, 300));
  const customerId = idOf(useDebouncedValue(customer, 300));
  return (
    <PageFrame title={title}>
      <Card>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField name="explorerSeller" label="Seller id" value={seller} onValueChange={setSeller} />
          <TextField
            name="explorerCustomer"
            label="Customer id"
            value={customer}
            onValueChange={setCustomer}
          />
        </div>
      </Card>
      {sellerId !== null && customerId !== null ? (
        children({ sellerId, customerId })
      ) : (
        <p className="text-sm text-gray-600">Enter a seller id and a customer id to explore.</p>
      )}
    </PageFrame>
  );
};

const CustomerInvoices = ({
  sellerId,
  customerId,
  children,
}: {
  sellerId: number;
  customerId: number;
  children: (input: { name: string; invoices: readonly AssetInvoice[] }) => ReactNode;
}) => {
  const invoices = useCustomerInvoices({ sellerId, customerId }, { anyTenant: true });
  if (invoices.isError)
    return (
      <p role="alert" className="text-sm text-red-700">
        {invoices.error.message}
      </p>
    );
  if (!invoices.data)
    return (
      <p role="status" className="text-sm text-gray-600">
        Loading...
      </p>
    );
  return <Card>{children({ name: invoices.data.name, invoices: invoices.data.invoices })}</Card>;
};

/** /admin/explorer/metrics: the customer transaction chart for any seller's customer. */
export const MetricExplorerPage = () => (
  <CustomerPicker title="Metric explorer">
    {(ids) => (
      <CustomerInvoices {...ids}>
        {(customer) => (
          <CustomerTransactionChart name={customer.name} invoices={customer.invoices} money={money} />
        )}
      </CustomerInvoices>
    )}
  </CustomerPicker>
);

const transactionColumns: DataColumn<AssetInvoice>[] = [
  { id: 'docNumber', header: 'Invoice', value: (row) => row.docNumber, sortable: true, searchable: true },
  {
    id: 'date',
    header: 'Date',
    value: (row) => row.transactionDate,
    sortable: true,
    cell: (row) => transactionDay(row.transactionDate),
  },
  {
    id: 'due',
    header: 'Due',
    value: (row) => row.dueDate,
    sortable: true,
    hideOnMobile: true,
    cell: (row) => transactionDay(row.dueDate),
  },
  {
    id: 'amount',
    header: 'Amount',
    value: (row) => row.amount,
    sortable: true,
    align: 'end',
    cell: (row) => money(row.amount / 100),
  },
  {
    id: 'balance',
    header: 'Balance',
    value: (row) => row.balance,
    sortable: true,
    align: 'end',
    hideOnMobile: true,
    cell: (row) => money(row.balance / 100),
  },
  {
    id: 'paid',
    header: 'Paid on',
    value: (row) => row.paidDate,
    sortable: true,
    hideOnMobile: true,
    cell: (row) => (row.paidDate ? transactionDay(row.paidDate) : 'Open'),
  },
];

/** /admin/explorer/transactions: every invoice of any seller's customer with its dates and balance. */
export const TransactionExplorerPage = () => (
  <CustomerPicker title="Transactions explorer">
    {(ids) => (
      <CustomerInvoices {...ids}>
        {(customer) => (
          <DataTable
            label={`Invoices of ${customer.name}`}
            data={customer.invoices}
            columns={transactionColumns}
            getRowId={(row) => row.providerId}
            searchLabel="Search invoice numbers"
            initialSort={{ id: 'date', desc: true }}
          />
        )}
      </CustomerInvoices>
    )}
  </CustomerPicker>
);
