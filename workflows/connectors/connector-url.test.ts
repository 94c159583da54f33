import { checkConnectorUrl, connectorUrlReasons, isNonPublicAddress } from './connector-url';

describe('addresses a connector may not call', () => {
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['10.1.2.3', 'private 10/8'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.254', 'carrier-grade NAT, last'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback, last'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['172.16.0.1', 'private 172.16/12'],
    ['172.31.255.255', 'private 172.16/12, last'],
    ['192.168.1.1', 'private 192.168/16'],
    ['198.18.0.1', 'benchmarking'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast, SSDP'],
    ['255.255.255.255', 'broadcast'],
    ['::', 'IPv6 unspecified'],
    ['::1', 'IPv6 loopback'],
    ['fe80::1', 'IPv6 link-local'],
    ['fe80::1%eth0', 'IPv6 link-local with a zone'],
    ['fc00::1', 'IPv6 unique local'],
    ['fd12:3456:789a::1', 'IPv6 unique local'],
    ['ff02::1', 'IPv6 multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hex'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:169.254.169.254', 'IPv4-mapped metadata'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 of link-local'],
    ['2002:7f00:1::', '6to4 of loopback'],
    ['not-an-address', 'not an address'],
  ])('refuses %s (%s)', (address) => {
    expect(isNonPublicAddress(address)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '100.63.255.255',
    '100.128.0.1',
    '172.15.255.255',
    '172.32.0.1',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
  ])('allows the public address %s', (address) => {
    expect(isNonPublicAddress(address)).toBe(false);
  });
});

describe('connector URLs', () => {
  const resolvesTo =
    (...addresses: string[]) =>
    () =>
      Promise.resolve(addresses);

  it('accepts an https URL whose name resolves only to public addresses', async () => {
    const verdict = await checkConnectorUrl('https://acme.api-us1.com', resolvesTo('104.18.1.1'));
    expect(verdict).toMatchObject({ ok: true, addresses: ['104.18.1.1'] });
  });

  it.each([
    ['http://acme.api-us1.com', connectorUrlReasons.https],
    ['ftp://acme.api-us1.com', connectorUrlReasons.https],
    ['file:///etc/passwd', connectorUrlReasons.https],
    ['gopher://127.0.0.1:6379/_INFO', connectorUrlReasons.https],
    ['not a url', connectorUrlReasons.invalid],
    ['https://user:secret@acme.api-us1.com', connectorUrlReasons.credentials],
    ['https://127.0.0.1/api', connectorUrlReasons.notPublic],
    ['https://0x7f.1/api', connectorUrlReasons.notPublic],
    ['https://2130706433/api', connectorUrlReasons.notPublic],
    ['https://[::1]/api', connectorUrlReasons.notPublic],
    ['https://[::ffff:169.254.169.254]/latest/meta-data', connectorUrlReasons.notPublic],
  ])('refuses %s', async (url, reason) => {
    expect(await checkConnectorUrl(url, resolvesTo('104.18.1.1'))).toEqual({ ok: false, reason });
  });

  it('refuses a name that resolves to a private address, even beside a public one', async () => {
    expect(await checkConnectorUrl('https://intranet.example', resolvesTo('104.18.1.1', '10.0.0.5'))).toEqual(
      {
        ok: false,
        reason: connectorUrlReasons.notPublic,
      },
    );
  });

  it('refuses a name that does not resolve', async () => {
    const nowhere = () => Promise.reject(new Error('ENOTFOUND'));
    expect(await checkConnectorUrl('https://nowhere.example', nowhere)).toEqual({
      ok: false,
      reason: connectorUrlReasons.unresolved,
    });
  });
});
