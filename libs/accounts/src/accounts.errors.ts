import { AppError, NotFoundError } from '@app/core';

export class EmailTakenError extends AppError {
  constructor() {
    super(409, 'email_taken', 'An account with this email address already exists.');
  }
}

export class ApiKeyNotFoundError extends NotFoundError {
  constructor(keyId: number | string) {
    super(`No API key ${keyId} on this account.`);
  }
}

export class AccountNotFoundError extends NotFoundError {
  constructor(reference: string) {
    super(`No account ${reference}.`);
  }
}
