/** @jest-environment jsdom */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import type { DataColumn } from './data-columns';
import { DataTable } from './data-table';
import { tableTexts } from './empty-texts';

type Client = { Id: number; Name: string; Recipients: number; isDemo: boolean };

const columns: DataColumn<Client>[] = [
  { id: 'Name', header: 'Name', value: (row) => row.Name, sortable: true, searchable: true },
  { id: 'Recipients', header: 'Recipients', value: (row) => row.Recipients, sortable: true },
];

const clients: Client[] = [
  { Id: 1, Name: 'Demo Client', Recipients: 9, isDemo: true },
  { Id: 2, Name: 'beta Ltd', Recipients: 1, isDemo: false },
  { Id: 3, Name: 'Alpha Inc', Recipients: 5, isDemo: false },
  { Id: 4, Name: 'Zeta plc', Recipients: 3, isDemo: false },
];

const namesShown = () =>
  within(screen.getByRole('table'))
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0]?.textContent);

const ClientsTable = (props: { data: Client[] | undefined; filtered?: boolean; pageSize?: number }) => (
  <DataTable
    label="Clients"
    data={props.data}
    columns={columns}
    getRowId={(row) => String(row.Id)}
    emptyText={tableTexts.noClients}
    noMatchText={tableTexts.noClientsMatched}
    filtered={props.filtered ?? false}
    searchLabel="Search clients"
    initialSort={{ id: 'Name' }}
    keepLast={(row) => row.isDemo}
    {...(props.pageSize ? { pageSize: props.pageSize } : {})}
  />
);

describe('DataTable', () => {
  it('says Loading... until the rows come, then the empty text of the table', () => {
    const view = render(<ClientsTable data={undefined} />);
    expect(screen.getByRole('status').textContent).toBe('Loading...');
    view.rerender(<ClientsTable data={[]} />);
    expect(screen.getByRole('status').textContent).toBe('No Clients Connected');
  });

  it('says No Clients Matched when the search or the page filters hide every row', async () => {
    const view = render(<ClientsTable data={clients} />);
    await userEvent.type(screen.getByLabelText('Search clients'), 'nothing like it');
    expect(screen.getByRole('status').textContent).toBe('No Clients Matched');
    await userEvent.clear(screen.getByLabelText('Search clients'));
    view.rerender(<ClientsTable data={[]} filtered />);
    expect(screen.getByRole('status').textContent).toBe('No Clients Matched');
  });

  it('sorts by name, case-insensitively, with Demo Client last in both directions', async () => {
    render(<ClientsTable data={clients} />);
    expect(namesShown()).toEqual(['Alpha Inc', 'beta Ltd', 'Zeta plc', 'Demo Client']);
    const nameHeader = screen.getByRole('columnheader', { name: /Name/ });
    expect(nameHeader.getAttribute('aria-sort')).toBe('ascending');

    await userEvent.click(within(nameHeader).getByRole('button'));
    expect(nameHeader.getAttribute('aria-sort')).toBe('descending');
    expect(namesShown()).toEqual(['Zeta plc', 'beta Ltd', 'Alpha Inc', 'Demo Client']);

    await userEvent.click(screen.getByRole('button', { name: /Recipients/ }));
    expect(namesShown()).toEqual(['beta Ltd', 'Zeta plc', 'Alpha Inc', 'Demo Client']);
  });

  it('searches the searchable columns only', async () => {
    render(<ClientsTable data={clients} />);
    await userEvent.type(screen.getByLabelText('Search clients'), 'ALPHA');
    expect(namesShown()).toEqual(['Alpha Inc']);
    await userEvent.clear(screen.getByLabelText('Search clients'));
    await userEvent.type(screen.getByLabelText('Search clients'), '5');
    expect(screen.getByRole('status').textContent).toBe('No Clients Matched');
  });

  it('pages the rows, keeping Demo Client on the last page', async () => {
    render(<ClientsTable data={clients} pageSize={2} />);
    expect(namesShown()).toEqual(['Alpha Inc', 'beta Ltd']);
    expect(screen.getByText(/Page 1 of 2/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous page' }).hasAttribute('disabled')).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(namesShown()).toEqual(['Zeta plc', 'Demo Client']);
  });

  it('selects rows by their checkboxes and all at once, and shows row actions', async () => {
    const Selecting = () => {
      const [selected, setSelected] = useState<string[]>([]);
      return (
        <>
          <DataTable
            label="Clients"
            data={clients}
            columns={columns}
            getRowId={(row) => String(row.Id)}
            rowName={(row) => row.Name}
            selection={{ selected, onChange: setSelected }}
            rowActions={(row) => <button type="button">Switch to {row.Name}</button>}
          />
          <p>Selected: {[...selected].sort().join(',')}</p>
        </>
      );
    };
    render(<Selecting />);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Zeta plc' }));
    expect(screen.getByText('Selected: 4')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select all rows of Clients' }));
    expect(screen.getByText('Selected: 1,2,3,4')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Switch to Alpha Inc' })).toBeInTheDocument();
  });

  it('opens and closes a row to show its details under it', async () => {
    render(
      <DataTable
        label="Clients"
        data={clients}
        columns={columns}
        getRowId={(row) => String(row.Id)}
        expanded={{
          label: (row) => `Details of ${row.Name}`,
          render: (row) => <p>{`${row.Name} has ${row.Recipients} recipients`}</p>,
        }}
      />,
    );
    const toggle = screen.getByRole('button', { name: 'Details of Alpha Inc' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByText('Alpha Inc has 5 recipients')).not.toBeInTheDocument();
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText('Alpha Inc has 5 recipients')).toBeInTheDocument();
    // Other rows stay closed.
    expect(screen.queryByText('Zeta plc has 3 recipients')).not.toBeInTheDocument();
    await userEvent.click(toggle);
    expect(screen.queryByText('Alpha Inc has 5 recipients')).not.toBeInTheDocument();
  });
});
