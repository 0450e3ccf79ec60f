import {
  Account,
  AccountsService,
  ApiKeysService,
  CreateApiKeyDto,
  GRANTABLE_SCOPES,
  isPlan,
  PLANS,
} from '@app/accounts';
import { ValidationFailedError } from '@app/core';
import { EmailReports } from '@app/email';
import { validatedBody } from '@app/http';
import type { INestApplicationContext } from '@nestjs/common';
import { parseArgs, ParseArgsConfig } from 'node:util';
import { isEmail } from 'class-validator';

/** A command line the CLI cannot run: the message, then the usage of the command or of the CLI. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly usage?: string,
  ) {
    super(message);
  }
}

type Options = NonNullable<ParseArgsConfig['options']>;
type Values = Record<string, string | boolean | Array<string | boolean> | undefined>;
/** A command whose arguments were checked: runs it and returns what to print. */
type Run = (app: INestApplicationContext) => Promise<unknown>;

interface Command {
  /** What follows the command's name. */
  usage: string;
  /** One line on what it does; further lines are its options. */
  help: string[];
  options?: Options;
  /** Checks the arguments, before anything connects. */
  parse(args: string[], values: Values): Run | Promise<Run>;
}

const DEFAULT_PAGE = 100;
const MAX_PAGE = 1000;

function positiveInt(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^[1-9][0-9]*$/.test(value))
    throw new UsageError(`${name} must be a positive integer`);
  return Number(value);
}

function oneEmail(command: string, args: string[]): string {
  if (args.length !== 1 || !isEmail(args[0])) throw new UsageError(`${command} takes one email address`);
  return args[0]!;
}

/** An account as an operator reads it: its canonical email is the service's business. */
function shown({ emailCanonical: _canonical, ...account }: Account) {
  return account;
}

const COMMANDS: Record<string, Command> = {
  'create-account': {
    usage: '<email>',
    help: ['create an account and print its first key, which holds every scope'],
    parse: (args) => {
      const email = oneEmail('create-account', args);
      return async (app) => {
        const { account, apiKey } = await app.get(AccountsService).signUp(email);
        return { accountId: account.id, email: account.email, keyId: apiKey.key.id, key: apiKey.secret };
      };
    },
  },
  'email-history': {
    usage: '<email> [--limit N]',
    help: [
      'show the latest emails to an address (sent or why not) and what stops more: a permanent refusal, lists left',
      `--limit N    at most N emails (${DEFAULT_PAGE} when absent, at most ${MAX_PAGE})`,
    ],
    options: { limit: { type: 'string' } },
    parse: (args, values) => {
      const email = oneEmail('email-history', args);
      const limit = positiveInt(values.limit, '--limit') ?? DEFAULT_PAGE;
      if (limit > MAX_PAGE) throw new UsageError(`--limit must be at most ${MAX_PAGE}`);
      return (app) => app.get(EmailReports).of(email, limit);
    },
  },
  'issue-key': {
    usage: '<email> [--name NAME] [--scope SCOPE]...',
    help: [
      'issue another secret key for an account',
      '--name NAME     a label for people (operator when absent)',
      `--scope SCOPE   what the key may do, once per scope (every scope when absent): ${GRANTABLE_SCOPES.join(', ')}`,
    ],
    options: { name: { type: 'string' }, scope: { type: 'string', multiple: true } },
    parse: async (args, values) => {
      const email = oneEmail('issue-key', args);
      const name = (values.name as string | undefined) ?? 'operator';
      // Checked as the API checks the body of POST /v1/keys, with the same messages.
      const { scopes } = await validatedBody(CreateApiKeyDto, { name, ...(values.scope && { scopes: values.scope }) });
      return async (app) => {
        const account = await app.get(AccountsService).getByEmail(email);
        const { key, secret } = await app.get(ApiKeysService).issue(account.id, name, { scopes });
        return { accountId: account.id, keyId: key.id, scopes: key.scopes, key: secret };
      };
    },
  },
  'list-accounts': {
    usage: '[--after ID] [--limit N]',
    help: [
      'list accounts by id, a page at a time',
      '`next` in the result is the --after of the following page, null after the last',
      '--after ID   start after this account id',
      `--limit N    at most N accounts (${DEFAULT_PAGE} when absent, at most ${MAX_PAGE})`,
    ],
    options: { after: { type: 'string' }, limit: { type: 'string' } },
    parse: (args, values) => {
      if (args.length !== 0) throw new UsageError('list-accounts takes no arguments');
      const after = positiveInt(values.after, '--after') ?? 0;
      const limit = positiveInt(values.limit, '--limit') ?? DEFAULT_PAGE;
      if (limit > MAX_PAGE) throw new UsageError(`--limit must be at most ${MAX_PAGE}`);
      return async (app) => {
        const accounts = await app.get(AccountsService).list(after, limit);
        return { accounts: accounts.map(shown), next: accounts.length === limit ? accounts.at(-1)!.id : null };
      };
    },
  },
  'list-keys': {
    usage: '<email>',
    help: ['list the keys of an account, revoked ones included (never a secret key itself)'],
    parse: (args) => {
      const email = oneEmail('list-keys', args);
      return async (app) => {
        const account = await app.get(AccountsService).getByEmail(email);
        return { accountId: account.id, email: account.email, keys: await app.get(ApiKeysService).list(account.id) };
      };
    },
  },
  'revoke-key': {
    usage: '<keyId>',
    help: ['revoke a key of any account (every process stops accepting it within seconds)'],
    parse: (args) => {
      const keyId = positiveInt(args[0], 'keyId');
      if (keyId === undefined || args.length !== 1) throw new UsageError('revoke-key takes one key id');
      return async (app) => {
        await app.get(ApiKeysService).revokeAny(keyId);
        return { revoked: keyId };
      };
    },
  },
  'set-plan': {
    usage: `<email> <${PLANS.join('|')}> [--per-minute N] [--per-day N]`,
    help: [
      'change the plan of an account',
      '--per-minute N, --per-day N   custom figures, for the enterprise plan only',
    ],
    options: { 'per-minute': { type: 'string' }, 'per-day': { type: 'string' } },
    parse: (args, values) => {
      const [email, plan] = args;
      if (!email || !plan || args.length !== 2) throw new UsageError('set-plan takes an email address and a plan');
      if (!isPlan(plan)) throw new UsageError(`plan must be one of ${PLANS.join(', ')}`);
      const perMinute = positiveInt(values['per-minute'], '--per-minute');
      const perDay = positiveInt(values['per-day'], '--per-day');
      if ((perMinute || perDay) && plan !== 'enterprise') {
        throw new UsageError('--per-minute and --per-day apply to the enterprise plan only');
      }
      return async (app) => {
        const account = await app.get(AccountsService).setPlan(email, plan, { perMinute, perDay });
        return { accountId: account.id, email: account.email, plan: account.plan };
      };
    },
  },
};

const HELP_OPTION: Options = { help: { type: 'boolean', short: 'h' } };

function commandHelp(name: string): string {
  const { usage, help } = COMMANDS[name]!;
  const [what, ...options] = help;
  return [`npm run cli -- ${name} ${usage}`, '', `  ${what}`, ...options.map((line) => `  ${line}`)].join('\n');
}

export const USAGE = [
  'npm run cli -- <command> [arguments]',
  '',
  'Operator commands (`npm run cli -- <command> --help` says more of one):',
  ...Object.entries(COMMANDS).flatMap(([name, { usage, help }]) => [`  ${name} ${usage}`, `      ${help[0]}`]),
].join('\n');

/** What the command line asks for: a help text to print, or a checked command to run. */
export async function parseCommandLine(argv: string[]): Promise<{ help: string } | { run: Run }> {
  const [name, ...rest] = argv;
  if (name === undefined) throw new UsageError('no command given');
  if (name === '--help' || name === '-h' || name === 'help') {
    const [about] = rest;
    return { help: about && COMMANDS[about] ? commandHelp(about) : USAGE };
  }
  const command = COMMANDS[name];
  if (!command) throw new UsageError(`unknown command ${name}`);
  try {
    const { positionals, values } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: { ...HELP_OPTION, ...command.options },
    });
    if (values.help) return { help: commandHelp(name) };
    return { run: await command.parse(positionals, values) };
  } catch (error) {
    // parseArgs' own errors (Unknown option '--x') carry a code, and advice on `--` that no command needs.
    const parseError = (error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS');
    if (parseError || error instanceof ValidationFailedError || error instanceof UsageError) {
      throw new UsageError((error as Error).message.split('. To specify a positional')[0]!, commandHelp(name));
    }
    throw error;
  }
}
