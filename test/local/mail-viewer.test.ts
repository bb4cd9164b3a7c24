import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { startSes } from '../../local/emulators';
import { mailPortFromEnv } from '../../local/env-options';

/** The local SES's mail viewer keeps its e-mails across restarts (in the data dir) and listens where it is told. */
describe('mail viewer', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toonzap-ses-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const send = async (url: string, subject: string) => {
    const ses = new SESv2Client({
      endpoint: url,
      region: 'us-east-1',
      credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    });
    await ses.send(
      new SendEmailCommand({
        FromEmailAddress: 'no-reply@toonzap.example',
        Destination: { ToAddresses: ['a@example.com'] },
        ReplyToAddresses: ['support@toonzap.example'],
        Content: { Simple: { Subject: { Data: subject }, Body: { Text: { Data: 'hello' } } } },
      }),
    );
    ses.destroy();
  };
  const subjects = async (url: string) =>
    ((await (await fetch(`${url}/store`)).json()) as { emails: { subject: string; replyTo?: string[] }[] }).emails.map(
      (e) => e.subject,
    );

  test('e-mails survive a restart', async () => {
    let ses = await startSes(dir, 0);
    await send(ses.url, 'first');
    await ses.close();

    ses = await startSes(dir, 0);
    expect(await subjects(ses.url)).toEqual(['first']);
    await send(ses.url, 'second');
    await ses.close();

    ses = await startSes(dir, 0);
    expect(await subjects(ses.url)).toEqual(['first', 'second']);
    await ses.close();
  });

  test('a fixed port is used as given; npm start takes TOONZAP_MAIL_PORT or 3005', async () => {
    expect(mailPortFromEnv({})).toBe(3005);
    expect(mailPortFromEnv({ TOONZAP_MAIL_PORT: '0' })).toBe(0);
    expect(mailPortFromEnv({ TOONZAP_MAIL_PORT: '4105' })).toBe(4105);
    expect(() => mailPortFromEnv({ TOONZAP_MAIL_PORT: 'x' })).toThrow(/TOONZAP_MAIL_PORT/);
    const probe = await startSes(dir, 0);
    const port = Number(new URL(probe.url).port);
    await probe.close();
    const ses = await startSes(dir, port);
    expect(ses.url).toBe(`http://127.0.0.1:${port}`);
    expect((await fetch(`${ses.url}/health-check`)).status).toBe(200);
    await ses.close();
  });
});
