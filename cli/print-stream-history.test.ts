import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { handleCommand } from '../commands/command-handler';
import { openEventSource } from '../commands/open-event-source';
import { runWithRequestContext } from '../commands/request-context';
import { loadConfig, type Config } from '../contracts/config';
import { userStream } from '../contracts/stream-ids';
import { userDecider } from '../domain/user/user-decider';
import { printStreamHistory } from './print-stream-history';

const passwordHash = 'scrypt$16$8$1$c2FsdA$an-operator-must-never-see-this-hash';
const resetToken = 'live-reset-token-0123456789abcdef';

let dir: string;
let config: Config;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ledgerwise-history-cli-'));
  config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dir });
  const source = await openEventSource(config);
  try {
    // Recorded as an older gateway did: the link's token still in the request URL.
    await runWithRequestContext(
      { actor: 'anonymous', url: `/api/auth/resetPassword?token=${resetToken}`, method: 'POST' },
      () =>
        handleCommand(
          userDecider,
          {
            streamId: userStream(5),
            commandId: 'register-5',
            command: {
              type: 'RegisterUser',
              data: {
                userId: 5,
                email: 'ops@example.com',
                givenName: 'Olive',
                familyName: 'Operator',
                authProvider: 'password',
                passwordHash,
                emailVerified: true,
                emailInUse: false,
              },
              now: new Date('2026-01-05T09:00:00.000Z'),
              actor: { userId: null, isPlatformAdmin: false, tenantRole: null, isAdvisor: false },
            },
          },
          source.writeSide,
        ),
    );
  } finally {
    await source.close();
  }
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What `ledgerwise history <streamId>` prints on stdout. */
const printed = async (streamId: string) => {
  const lines: string[] = [];
  const out = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    expect(await printStreamHistory(config, [streamId])).toBe(0);
  } finally {
    out.mockRestore();
  }
  return lines.join('');
};

describe('ledgerwise history', () => {
  it('prints the replay with the admin route’s redaction: no password hash, no link token', async () => {
    const output = await printed('user-5');
    const [step] = output
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);

    expect(output).not.toContain(passwordHash);
    expect(output).not.toContain(resetToken);
    expect(step).toMatchObject({
      revision: 0,
      type: 'UserRegistered',
      data: { Email: 'ops@example.com', PasswordHash: '[redacted]' },
      metadata: { url: expect.stringMatching(/^\/api\/auth\/resetPassword\?token=/) as string },
    });
  });
});
