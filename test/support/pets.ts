import { AccountsService } from '@app/accounts';
import { SqlCounter } from '../../bench/support/sql-counter';
import { createApiApp } from './api-app';
import { suiteDatabase, SuiteDatabase } from './database';
import { signUp, TestAccount } from './factories';
import type { TestAppOverrides, TestHttpApp } from './http-app';

/** Follows `Link: <…>; rel="next"` from the first page to the last; `between` runs after each page. */
export async function walkPages(
  app: TestHttpApp,
  account: TestAccount,
  firstPath: string,
  between?: (page: number) => Promise<unknown>,
) {
  const seen: number[] = [];
  const bodies: Array<Array<Record<string, unknown> & { id: number }>> = [];
  let path: string | undefined = firstPath;
  let pages = 0;
  while (path) {
    const response: { body: Array<Record<string, unknown> & { id: number }>; headers: Record<string, string> } =
      await app.http.get(path).set(account.auth).expect(200);
    seen.push(...response.body.map((pet) => pet.id));
    bodies.push(response.body);
    path = /<([^>]+)>; rel="next"/.exec(response.headers.link ?? '')?.[1];
    pages++;
    if (path && between) await between(pages);
  }
  return { seen, pages, pets: bodies.flat() };
}

export interface PetsSuite {
  app: TestHttpApp;
  /** On the Business plan: the suites send more than a Free account's 60 requests a minute. */
  account: TestAccount;
  /** The suite's own database: it counts every pet in the catalogue. */
  database: SuiteDatabase;
  /** The app's statements, counted on the wire between it and PostgreSQL. */
  sql: SqlCounter;
  close(): Promise<void>;
}

/** An api app on a database of the suite's own, its statements counted, and an account to call it with. */
export async function startPetsSuite(name: string, providers: TestAppOverrides['providers'] = []): Promise<PetsSuite> {
  const database = await suiteDatabase(name);
  const url = new URL(database.url);
  const sql = new SqlCounter({ host: url.hostname, port: Number(url.port) });
  url.port = String(await sql.listen());
  const app = await createApiApp({ env: { DATABASE_URL: url.toString() }, providers });
  const account = await signUp(app.http);
  await app.app.get(AccountsService).setPlan(account.email, 'business');
  return {
    app,
    account,
    database,
    sql,
    async close() {
      await app.close();
      await sql.close();
      await database.drop();
    },
  };
}
