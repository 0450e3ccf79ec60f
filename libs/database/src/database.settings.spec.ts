import { loadSettings } from '@app/core';
import { DatabaseSettings } from './database.settings';

describe('DatabaseSettings', () => {
  it('supplies the contract’s defaults when nothing is set', () => {
    expect(loadSettings(DatabaseSettings, {})).toMatchObject({
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/pet_adoption',
      DATABASE_POOL_SIZE: 10,
      DATABASE_MIGRATE_ON_START: true,
    });
  });

  it('reads the migration switch from text', () => {
    expect(loadSettings(DatabaseSettings, { DATABASE_MIGRATE_ON_START: 'false' }).DATABASE_MIGRATE_ON_START).toBe(
      false,
    );
  });

  it('refuses an address that is not PostgreSQL’s and a pool out of bounds', () => {
    const load = () => loadSettings(DatabaseSettings, { DATABASE_URL: 'mysql://db/x', DATABASE_POOL_SIZE: '501' });
    expect(load).toThrow(/^ {2}DATABASE_URL="mysql:\/\/db\/x": /m);
    expect(load).toThrow(/^ {2}DATABASE_POOL_SIZE=501: /m);
  });

  it('reads replicas as a comma-separated list, none by default, and names one that is not PostgreSQL’s', () => {
    expect(loadSettings(DatabaseSettings, {}).DATABASE_REPLICA_URLS).toEqual([]);
    expect(
      loadSettings(DatabaseSettings, { DATABASE_REPLICA_URLS: 'postgres://r1/db, postgres://r2/db,' })
        .DATABASE_REPLICA_URLS,
    ).toEqual(['postgres://r1/db', 'postgres://r2/db']);
    expect(() => loadSettings(DatabaseSettings, { DATABASE_REPLICA_URLS: 'postgres://r1/db,http://r2' })).toThrow(
      /DATABASE_REPLICA_URLS=.*comma-separated postgres:\/\/ or postgresql:\/\/ URLs/,
    );
  });
});
