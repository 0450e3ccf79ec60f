import { AccountsService, ApiKeysService, isPlan, PLANS } from '@app/accounts';
import type { INestApplicationContext } from '@nestjs/common';
import { parseArgs } from 'node:util';
import { isEmail } from 'class-validator';

export const USAGE = `Operator commands:
  create-account <email>                                   create an account and print its first key
  issue-key <email> [--name NAME]                          issue another key for an account
  revoke-key <keyId>                                       revoke a key (every process stops accepting it)
  set-plan <email> <${PLANS.join('|')}> [--per-minute N] [--per-day N]
                                                           change the plan (custom figures: enterprise only)`;

export class UsageError extends Error {}

function positiveInt(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9][0-9]*$/.test(value)) throw new UsageError(`${name} must be a positive integer`);
  return Number(value);
}

/** Runs one operator command and returns what to print. */
export async function runCommand(app: INestApplicationContext, argv: string[]): Promise<unknown> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { name: { type: 'string' }, 'per-minute': { type: 'string' }, 'per-day': { type: 'string' } },
  });
  const [command, ...args] = positionals;
  const accounts = app.get(AccountsService);
  const keys = app.get(ApiKeysService);

  switch (command) {
    case 'create-account': {
      if (args.length !== 1 || !isEmail(args[0])) throw new UsageError('create-account takes one email address');
      const { account, apiKey } = await accounts.signUp(args[0]!);
      return { accountId: account.id, email: account.email, keyId: apiKey.key.id, key: apiKey.secret };
    }
    case 'issue-key': {
      if (args.length !== 1) throw new UsageError('issue-key takes one email address');
      const account = await accounts.getByEmail(args[0]!);
      const { key, secret } = await keys.issue(account.id, values.name ?? 'operator');
      return { accountId: account.id, keyId: key.id, key: secret };
    }
    case 'revoke-key': {
      const keyId = positiveInt(args[0], 'keyId');
      if (keyId === undefined || args.length !== 1) throw new UsageError('revoke-key takes one key id');
      await keys.revokeAny(keyId);
      return { revoked: keyId };
    }
    case 'set-plan': {
      const [email, plan] = args;
      if (!email || !plan || args.length !== 2) throw new UsageError('set-plan takes an email address and a plan');
      if (!isPlan(plan)) throw new UsageError(`plan must be one of ${PLANS.join(', ')}`);
      const perMinute = positiveInt(values['per-minute'], '--per-minute');
      const perDay = positiveInt(values['per-day'], '--per-day');
      if ((perMinute || perDay) && plan !== 'enterprise') {
        throw new UsageError('--per-minute and --per-day apply to the enterprise plan only');
      }
      const account = await accounts.setPlan(email, plan, { perMinute, perDay });
      return { accountId: account.id, email: account.email, plan: account.plan };
    }
    default:
      throw new UsageError(command ? `unknown command ${command}` : 'no command given');
  }
}
