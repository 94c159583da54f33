import { Button, Card, Text, Title } from '@tremor/react';
import type { IntegrationResponse } from '../../../../contracts/api/integrations';
import { cardState, connectCards, type CardContext, type ConnectCard } from './connect-cards';

type Props = {
  context: CardContext;
  integrations: readonly IntegrationResponse[];
  onOpen: (card: ConnectCard) => void;
  busy: ConnectCard['id'] | null;
};

const linkButton =
  'inline-flex items-center justify-center rounded-tremor-default bg-blue-600 px-4 py-2 text-sm font-medium text-white hover:bg-blue-700 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600';

const accountOf = (card: ConnectCard, integrations: readonly IntegrationResponse[]) =>
  card.group === 'integration'
    ? integrations.find(
        (row) => row.Provider === card.provider && (row.ProductIdentifier ?? undefined) === card.product,
      )
    : undefined;

/** The connect cards with their gating, and a card of connection guides. */
export const ConnectCardGrid = ({ context, integrations, onOpen, busy }: Props) => (
  <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
    {connectCards.map((card) => {
      const state = cardState(card, context);
      if (!state.shown) return null;
      const account = accountOf(card, integrations);
      const hintId = `connect-hint-${card.id}`;
      const label = card.method.kind === 'qbd' ? 'Get Web Connector file' : 'Connect';
      // The accessible name starts with the visible text (WCAG 2.5.3), then names the card.
      const name = card.method.kind === 'qbd' ? `${label} for ${card.name}` : `Connect ${card.name}`;
      return (
        <Card key={card.id} data-testid={`connect-card-${card.id}`} className="flex flex-col">
          <Title>{card.name}</Title>
          <Text className="mt-1 flex-1">{card.description}</Text>
          <div className="mt-4 space-y-2">
            {account ? (
              <p className="text-sm font-medium text-emerald-700">Connected</p>
            ) : state.disabled ? (
              // Named like the open card, so a screen reader hears which card is locked and why.
              <Button
                type="button"
                disabled
                aria-label={name}
                aria-describedby={state.hint ? hintId : undefined}
                className="w-full"
              >
                {label}
              </Button>
            ) : card.method.kind === 'redirect' ? (
              <a
                href={card.method.href}
                className={`${linkButton} w-full`}
                aria-label={`Connect ${card.name}`}
              >
                Connect
              </a>
            ) : (
              <Button
                type="button"
                className="w-full"
                loading={busy === card.id}
                onClick={() => onOpen(card)}
                aria-label={name}
              >
                {label}
              </Button>
            )}
            {!account && state.hint && (
              <p id={hintId} className="text-xs text-gray-600">
                {state.hint}
              </p>
            )}
          </div>
        </Card>
      );
    })}
    <Card>
      <Title>Connection guides</Title>
      <Text className="mt-1">
        Step-by-step help for every platform, including the QuickBooks Web Connector.
      </Text>
      <a
        href="https://help.ledgerwise.example/connections"
        target="_blank"
        rel="noreferrer"
        className="mt-4 inline-block text-sm font-medium text-blue-700 underline"
      >
        Open the guides
      </a>
    </Card>
  </div>
);
