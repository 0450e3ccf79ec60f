import { CurrentPrincipal, Principal } from '@app/core';
import { Body, Controller, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ACCOUNTS_API_TAG } from '../accounts-openapi';
import { Endpoint } from '../api-keys/endpoint.decorator';
import { AccountExportDto } from '../dto/account-export.dto';
import { DeleteAccountDto } from '../dto/delete-account.dto';
import { AccountDeletion } from './account-deletion';
import { AccountExport } from './account-export';

@ApiTags(ACCOUNTS_API_TAG.name)
@ApiBearerAuth()
@Controller()
export class PersonalDataController {
  constructor(
    private readonly exports: AccountExport,
    private readonly deletion: AccountDeletion,
  ) {}

  @Endpoint({
    method: 'GET',
    path: 'account/export',
    id: 'exportAccount',
    scope: '*',
    summary: 'Export everything held about the account',
    description:
      'One JSON document of everything the service holds about the account, read at one moment: the account, ' +
      'its keys (never a secret), its organisation, its pets with their photos’ URLs, its orders of both roles, ' +
      'its saved searches, webhook endpoints (never a secret), messages, and its events of the last 30 days. ' +
      'It is streamed as it is read, so it arrives however large the account. Its layout: docs/security.md.',
    success: { status: 200, description: 'The document.', type: AccountExportDto },
    errors: [401],
  })
  async export(@CurrentPrincipal() principal: Principal, @Res() response: Response): Promise<void> {
    response.status(200).type('application/json');
    try {
      await this.exports.write(principal.accountId, async (chunk) => {
        if (!response.write(chunk)) await drainedOrClosed(response);
        if (response.destroyed) throw new Error('the client went away');
      });
      response.end();
    } catch (error) {
      // Once a byte is out the status cannot change: a cut-off document is what tells the client it failed.
      if (response.headersSent) response.destroy(error as Error);
      else throw error;
    }
  }

  @Endpoint({
    method: 'DELETE',
    path: 'account',
    id: 'deleteAccount',
    scope: '*',
    summary: 'Delete the account and erase its data',
    description:
      'Deletes the account, confirmed by its email. At once every key of the account is refused (`401`) on ' +
      'every process, and its email is erased, so the address may sign up again. Within a minute a worker ' +
      'cancels its open orders (`account_deleted`), removes its pets as `deletePet` does (their photos’ files ' +
      'too), deletes its organisation, saved searches, webhook endpoints and messages, and erases its events. ' +
      'The other party of an order keeps it, without the deleted party’s note. Erasure is never undone.',
    success: { status: 202, description: 'Deleted; the erasure of its data is under way.' },
    errors: [400, 401],
  })
  async delete(@CurrentPrincipal() principal: Principal, @Body() body: DeleteAccountDto): Promise<void> {
    await this.deletion.delete(principal.accountId, body.confirm);
  }
}

/** Settles once the response may take more, or is gone; its listeners go with it. */
function drainedOrClosed(response: Response): Promise<void> {
  return new Promise((resolve) => {
    const settle = () => {
      response.off('drain', settle).off('close', settle);
      resolve();
    };
    response.on('drain', settle).on('close', settle);
  });
}
