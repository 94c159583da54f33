import {
  positionCookie,
  readAfterAnswerHeader,
  readAfterHeader,
} from '../../gateway/plugins/read-your-writes';
import { signUp } from './fixtures';
import { useGatewayWorld } from './gateway-world';

const world = useGatewayWorld(__filename);

describe('read-your-writes positions', () => {
  it('reads after the position of the caller’s own command, from the signed cookie', async () => {
    const { browser } = await signUp(world, { name: 'writer' });
    expect(browser.cookies.get(positionCookie)).toBeDefined();
    const head = await world.services.writeSide.store.headPosition();

    const self = await browser.get('/api/auth/self');

    expect(self.statusCode).toBe(200);
    expect(Number(self.headers[readAfterAnswerHeader])).toBeGreaterThan(0);
    expect(Number(self.headers[readAfterAnswerHeader])).toBeLessThanOrEqual(head);
  });

  it('clamps a position beyond the end of the event store to its end', async () => {
    const { browser } = await signUp(world, { name: 'forger' });
    const head = await world.services.writeSide.store.headPosition();

    const self = await browser.request({
      method: 'GET',
      url: '/api/auth/self',
      headers: { [readAfterHeader]: '999999999999999' },
    });

    expect(self.statusCode).toBe(200);
    expect(self.headers[readAfterAnswerHeader]).toBe(String(head));
  });

  it('ignores a position cookie the gateway did not sign', async () => {
    const { browser } = await signUp(world, { name: 'cookie-forger' });
    browser.cookies.set(positionCookie, '999999999999999');

    const self = await browser.get('/api/auth/self');

    expect(self.statusCode).toBe(200);
    expect(self.headers[readAfterAnswerHeader]).toBeUndefined();
  });
});
