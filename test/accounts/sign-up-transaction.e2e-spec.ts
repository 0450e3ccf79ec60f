import { createApiApp } from '../support/api-app';
import { withDatabase } from '../support/database';
import { signUp, uniqueEmail } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';

describe('sign-up as one transaction', () => {
  let app: TestHttpApp;

  beforeAll(async () => {
    app = await createApiApp();
    // PostgreSQL refuses the first key of accounts whose email starts with `no-key-`.
    await withDatabase((client) =>
      client.query(`
        CREATE FUNCTION refuse_key_spec() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN
            IF (SELECT email FROM accounts WHERE id = NEW.account_id) LIKE 'no-key-%' THEN
              RAISE EXCEPTION 'key refused' USING ERRCODE = 'P0001';
            END IF;
            RETURN NEW;
          END $$;
        CREATE TRIGGER refuse_key_spec BEFORE INSERT ON api_keys FOR EACH ROW EXECUTE FUNCTION refuse_key_spec();`),
    );
  });
  afterAll(async () => {
    await withDatabase((client) =>
      client.query('DROP TRIGGER refuse_key_spec ON api_keys; DROP FUNCTION refuse_key_spec()'),
    );
    await app.close();
  });

  it('leaves no account behind when its first key cannot be stored', async () => {
    const email = uniqueEmail('no-key');
    const response = await app.http.post('/v1/accounts').send({ email }).expect(500);
    expect(response.body).toMatchObject({ code: 'internal_error', status: 500 });

    const stored = await withDatabase((client) => client.query('SELECT 1 FROM accounts WHERE email = $1', [email]));
    expect(stored.rowCount).toBe(0);
  });

  it('lets the same email sign up once its key can be stored', async () => {
    const email = uniqueEmail('no-key');
    await app.http.post('/v1/accounts').send({ email }).expect(500);
    await withDatabase((client) => client.query('ALTER TABLE api_keys DISABLE TRIGGER refuse_key_spec'));
    try {
      const account = await signUp(app.http, email);
      await app.http.get('/v1/account').set(account.auth).expect(200);
    } finally {
      await withDatabase((client) => client.query('ALTER TABLE api_keys ENABLE TRIGGER refuse_key_spec'));
    }
  });
});
