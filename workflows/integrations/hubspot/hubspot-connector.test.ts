import { hubSpotLimitName, hubSpotPropertyName, propertyLabel } from './hubspot-connector';

describe('HubSpot names', () => {
  it('turns free keys into property names HubSpot accepts', () => {
    expect(hubSpotPropertyName('ledgerwise_dso_days')).toBe('ledgerwise_dso_days');
    expect(hubSpotPropertyName('Open Receivables (€)')).toBe('open_receivables');
    expect(hubSpotPropertyName('Días de cobro')).toBe('dias_de_cobro');
    expect(hubSpotPropertyName('30d expected')).toBe('p_30d_expected');
  });

  it('labels the RevOps properties for people', () => {
    expect(propertyLabel('ledgerwise_dso_days')).toBe('DSO days (Ledgerwise)');
    expect(propertyLabel('ledgerwise_expected_collections_30d')).toBe(
      'Expected collections 30D (Ledgerwise)',
    );
    expect(propertyLabel('lw_payment_segment')).toBe('Payment segment (Ledgerwise)');
  });

  it("names the limit a 429 hit from HubSpot's headers", () => {
    const answer = (headers: Record<string, string>) => new Response(null, { status: 429, headers });
    expect(hubSpotLimitName(answer({ 'x-hubspot-ratelimit-daily-remaining': '0' }))).toBe('daily');
    expect(hubSpotLimitName(answer({ 'x-hubspot-ratelimit-remaining': '0' }))).toBe('ten-second');
    expect(hubSpotLimitName(answer({}))).toBeNull();
  });
});
