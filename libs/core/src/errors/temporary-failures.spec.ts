import { isTemporaryFailure } from './temporary-failures';

describe('isTemporaryFailure', () => {
  it.each([
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })],
    ['PostgreSQL shutting down', Object.assign(new Error('terminating connection'), { code: '57P01' })],
    ['a pool timeout', new Error('timeout exceeded when trying to connect')],
    ['a TypeORM-wrapped driver error', { message: 'query failed', driverError: { code: '08006' } }],
    ['a Redis command timeout', new Error('Command timed out')],
    [
      'a statement PostgreSQL cancelled past statement_timeout',
      Object.assign(new Error('canceling statement'), { code: '57014' }),
    ],
    [
      'a deadlock PostgreSQL settled by rolling this work back',
      Object.assign(new Error('deadlock detected'), { code: '40P01' }),
    ],
    ['a serialization failure', { message: 'could not serialize access', driverError: { code: '40001' } }],
    [
      'an error whose cause is unavailable',
      new Error('outer', { cause: new Error('Connection terminated unexpectedly') }),
    ],
  ])('recognises %s', (_case, error) => {
    expect(isTemporaryFailure(error)).toBe(true);
  });

  it.each([
    ['a bug', new TypeError('x is not a function')],
    ['a constraint violation', { message: 'duplicate key', driverError: { code: '23505' } }],
    ['nothing', undefined],
  ])('does not take %s for a failure that passes', (_case, error) => {
    expect(isTemporaryFailure(error)).toBe(false);
  });
});
