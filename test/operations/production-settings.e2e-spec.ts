import { startCompiled, waitFor } from '../support/processes';
import { PRODUCTION_ENV } from '../support/test-env';

/** Runs an app until it exits on its own; answers its exit code and the lines it wrote. */
async function exitOf(app: string, env: Record<string, string>): Promise<{ code: number | null; lines: string[] }> {
  const entry = `apps/${app}/src/main.js`;
  const started = await startCompiled(entry, { STARTUP_WAIT_MS: '0', ...env });
  try {
    await waitFor(async () => started.child.exitCode !== null, 30_000, `${entry} to exit`);
  } finally {
    await started.stop();
  }
  return { code: started.child.exitCode, lines: started.output().trim().split('\n') };
}

const LINES = {
  PUBLIC_BASE_URL_PRODUCTION:
    '  PUBLIC_BASE_URL_PRODUCTION is not set: in production set it to the api’s public address, such as https://pets.example/v1',
  PUBLIC_MESSAGES_URL:
    '  PUBLIC_MESSAGES_URL is not set: in production set it to the messages app’s public address, such as https://messages.pets.example',
  PHOTO_STORAGE_DIR:
    '  PHOTO_STORAGE_DIR="data/photos": in production set PHOTO_STORAGE_DIR to an absolute path on storage the api and ' +
    'the worker share, or PHOTO_STORAGE=s3',
  EMAIL_TRANSPORT:
    '  EMAIL_TRANSPORT is not set: in production set EMAIL_TRANSPORT=smtp and SMTP_URL, such as ' +
    'smtp://user:pass@mail.example:587, so that emails reach people',
  PHOTO_PUBLIC_BASE_URL:
    '  PHOTO_PUBLIC_BASE_URL is not set: in production set it to where clients fetch renditions, such as ' +
    'https://pets.example/media (the api serves them at /media) or a CDN',
};

describe('an app started with APP_ENV=production and what production must set left unset', () => {
  const unset = { APP_ENV: 'production', PHOTO_STORAGE_DIR: 'data/photos' };

  it.each([
    [
      'api',
      [
        LINES.PUBLIC_BASE_URL_PRODUCTION,
        LINES.PUBLIC_MESSAGES_URL,
        LINES.PHOTO_STORAGE_DIR,
        LINES.PHOTO_PUBLIC_BASE_URL,
      ],
    ],
    ['messages', [LINES.PUBLIC_BASE_URL_PRODUCTION, LINES.PUBLIC_MESSAGES_URL]],
    [
      'worker',
      [
        LINES.PHOTO_STORAGE_DIR,
        LINES.PHOTO_PUBLIC_BASE_URL,
        LINES.PUBLIC_BASE_URL_PRODUCTION,
        LINES.PUBLIC_MESSAGES_URL,
        LINES.EMAIL_TRANSPORT,
      ],
    ],
  ])('refuses to start the %s, with one line naming each setting', async (app, lines) => {
    const { code, lines: written } = await exitOf(app, unset);
    expect(code).toBe(1);
    expect(written).toEqual(['Invalid configuration:', ...lines]);
  });

  it('refuses the worker with an SMTP_URL that is not one, naming it', async () => {
    const { code, lines } = await exitOf('worker', { ...PRODUCTION_ENV, SMTP_URL: 'mail.example:587' });
    expect(code).toBe(1);
    expect(lines).toEqual([
      'Invalid configuration:',
      '  SMTP_URL="mail.example:587": SMTP_URL must be a smtp:// or smtps:// URL such as smtp://user:pass@mail.example:587',
    ]);
  });

  it('refuses the worker without WEBHOOK_SECRETS_KEY, whatever else is set', async () => {
    const { code, lines } = await exitOf('worker', { ...PRODUCTION_ENV, WEBHOOK_SECRETS_KEY: '' });
    expect(code).toBe(1);
    expect(lines).toEqual([
      'Invalid configuration:',
      '  WEBHOOK_SECRETS_KEY=undefined: must be the base64 of 32 bytes (`openssl rand -base64 32`), and is required unless APP_ENV=development',
    ]);
  });
});
