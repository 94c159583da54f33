const first = [
  'Acme',
  'Bluebird',
  'Cedar',
  'Delta',
  'Evergreen',
  'Foxglove',
  'Granite',
  'Harbor',
  'Iris',
  'Juniper',
  'Kestrel',
  'Lumen',
  'Maple',
  'Northwind',
  'Orchid',
  'Pioneer',
  'Quarry',
  'Redwood',
  'Summit',
  'Tidewater',
];
const second = [
  'Bakery',
  'Builders',
  'Clinic',
  'Design',
  'Electric',
  'Foods',
  'Logistics',
  'Media',
  'Motors',
  'Outfitters',
  'Plumbing',
  'Printing',
  'Realty',
  'Studios',
  'Supply',
  'Systems',
  'Textiles',
  'Traders',
];

/** A plausible, unique company name for a generated customer. */
export const customerNameOf = (customerId: number): string => {
  const a = first[customerId % first.length] ?? 'Acme';
  const b = second[Math.floor(customerId / first.length) % second.length] ?? 'Supply';
  const round = Math.floor(customerId / (first.length * second.length));
  return round === 0 ? `${a} ${b}` : `${a} ${b} ${round + 1}`;
};
