import { isDependencyUnavailable } from './dependency-errors';

describe('isDependencyUnavailable', () => {
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
      'an error whose cause is unavailable',
      new Error('outer', { cause: new Error('Connection terminated unexpectedly') }),
    ],
  ])('recognises %s', (_case, error) => {
    expect(isDependencyUnavailable(error)).toBe(true);
  });

  it.each([
    ['a bug', new TypeError('x is not a function')],
    ['a constraint violation', { message: 'duplicate key', driverError: { code: '23505' } }],
    ['nothing', undefined],
  ])('does not take %s for an outage', (_case, error) => {
    expect(isDependencyUnavailable(error)).toBe(false);
  });
});
