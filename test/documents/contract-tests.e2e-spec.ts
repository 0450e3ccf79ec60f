import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { cli } from '../support/cli';
import { variationTests } from '../support/contract-tests';
import { withDatabase } from '../support/database';
import { uniqueEmail } from '../support/factories';
import { WebhookReceiver } from '../support/messages';
import { UnsubscribeTokens } from '../../libs/email/src/unsubscribe-tokens';
import type { EmailSettings } from '../../libs/email/src/email.settings';
import { tinyJpeg } from '../support/photos';
import { emptyWebhooksQueue, settleEarlierDeliveries } from '../support/webhooks';
import { AppProcess, startServing, waitFor } from '../support/processes';

const ROOT = join(__dirname, '..', '..');
const PORTMAN = require.resolve('@apideck/portman/bin/portman');
const NEWMAN = require.resolve('newman/bin/newman.js');

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Caller {
  key: string;
  email: string;
}

/**
 * Portman turns each committed document into a Postman collection of contract tests (each operation's answer:
 * a 2xx of the documented status, content type, headers and schema) and of variations derived from the
 * document (`variationTests`: each must get its documented 4xx), which newman runs against the api, messages
 * and worker processes on the test database and Redis. A document that says more or less than the service
 * fails here. The setup makes what the operations' path ids name; its accounts' keys are collection variables.
 */
describe('the committed OpenAPI documents, run by Portman and newman against the apps', () => {
  let api: AppProcess & { baseUrl: string };
  let messages: AppProcess & { baseUrl: string };
  let worker: AppProcess;
  const receiver = new WebhookReceiver();
  let work: string;
  const variables: Record<string, string> = {};

  const call = async (base: string, caller: Caller | undefined, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(caller && { Authorization: `Bearer ${caller.key}` }),
        ...(body !== undefined && { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as Json;
  };
  const v1 = (caller: Caller | undefined, method: string, path: string, body?: unknown) =>
    call(api.baseUrl, caller, method, `/v1${path}`, body);

  /** A new account on the enterprise plan: the collection sends more than a Free account's 60 requests a minute. */
  const account = async (): Promise<Caller> => {
    const email = uniqueEmail('contract');
    const created = await v1(undefined, 'POST', '/accounts', { email });
    const caller = { key: created.apiKey.key as string, email };
    await cli('set-plan', email, 'enterprise');
    await waitFor(
      async () => (await v1(caller, 'GET', '/account')).plan === 'enterprise',
      10_000,
      'the api to apply the plan',
    );
    return caller;
  };

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'contract-tests-'));
    // Every endpoint, the examples' too, sends to it: the worker delivers only on this machine.
    variables.webhookUrl = await receiver.start();
    // The worker delivers this suite's events only, not those earlier suites left to addresses of theirs.
    await Promise.all([emptyWebhooksQueue(), settleEarlierDeliveries()]);
    // One adopter places every order the collection moves through the states.
    [api, messages, worker] = await Promise.all([
      startServing('api', { ORDERS_MAX_OPEN_PER_ACCOUNT: '10' }),
      startServing('messages'),
      startServing('worker'),
    ]);
    const lister = await account();
    const adopter = await account();
    // openapi-to-postman gives every operation with a security requirement this variable as its bearer token.
    variables.bearerToken = lister.key;
    variables.adopterKey = adopter.key;

    const pet = async (owner: Caller) => String((await v1(owner, 'POST', '/pets', { name: 'Rex', categoryId: 1 })).id);
    variables.petId = await pet(lister);
    // Recorded before the endpoints exist, so that none of them has its delivery under way once the worker
    // dispatched it (a redelivery waits for that).
    variables.eventId = (await v1(lister, 'GET', '/events'))[0].id;
    await waitFor(
      () =>
        withDatabase(
          async (client) =>
            (
              await client.query('SELECT 1 FROM events WHERE id = $1 AND dispatched_at IS NOT NULL', [
                variables.eventId,
              ])
            ).rowCount === 1,
        ),
      30_000,
      'the worker to dispatch the event',
    );
    variables.petToDelete = await pet(lister);
    variables.petToOrder = await pet(adopter);

    const jpeg = await tinyJpeg();
    variables.photoFile = join(work, 'photo.jpg');
    writeFileSync(variables.photoFile, jpeg);
    const photo = async () => {
      const form = new FormData();
      form.append('file', new Blob([jpeg], { type: 'image/jpeg' }), 'photo.jpg');
      const response = await fetch(`${api.baseUrl}/v1/pets/${variables.petId}/photos`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${lister.key}` },
        body: form,
      });
      if (response.status !== 202) throw new Error(`photo upload answered ${response.status}`);
      return ((await response.json()) as Json).id as string;
    };
    variables.photoId = await photo();
    variables.photoToDelete = await photo();

    const order = async (...transitions: string[]) => {
      const placed = await v1(adopter, 'POST', '/store/orders', { petId: Number(await pet(lister)) });
      for (const transition of transitions) await v1(lister, 'POST', `/store/orders/${placed.id}/${transition}`);
      return String(placed.id);
    };
    variables.orderId = await order();
    variables.orderToApprove = await order();
    variables.orderToDeliver = await order('approve');
    variables.orderToCancel = await order();
    variables.orderToReturn = await order('approve', 'deliver');

    // The adopter applies for the lister's pets, one person each, for the operations that move an application on.
    const application = async (...transitions: string[]) => {
      const contact = { name: 'Alex Doe', email: uniqueEmail('contract') };
      const made = await v1(adopter, 'POST', `/pets/${await pet(lister)}/applications`, { answers: {}, contact });
      for (const transition of transitions) await v1(lister, 'POST', `/applications/${made.id}/${transition}`);
      return made.id as string;
    };
    variables.applicationId = await application();
    variables.applicationToReview = await application();
    variables.applicationToApprove = await application('review');
    variables.applicationToDecline = await application();
    variables.applicationToWithdraw = await application();
    variables.petToApplyFor = await pet(lister);
    // Meetings within the next days (the examples' times have passed), three of them for the steps that move one on.
    variables.applicationToMeet = await application('review');
    variables.applicationWithMeetings = await application('review');
    const tomorrow = Date.now() + 24 * 3600_000;
    variables.meetingStartsAt = new Date(tomorrow).toISOString();
    variables.meetingEndsAt = new Date(tomorrow + 3600_000).toISOString();
    const meeting = async () =>
      (
        await v1(lister, 'POST', `/applications/${variables.applicationWithMeetings}/meetings`, {
          startsAt: variables.meetingStartsAt,
          endsAt: variables.meetingEndsAt,
        })
      ).id as string;
    variables.meetingToAccept = await meeting();
    variables.meetingToDecline = await meeting();
    variables.meetingToCancel = await meeting();
    // An unsubscribe link as an email to the adopter about its application carries it, signed with the apps' key.
    const tokens = new UnsubscribeTokens({ EMAIL_UNSUBSCRIBE_KEY: process.env.EMAIL_UNSUBSCRIBE_KEY } as EmailSettings);
    variables.token = tokens.sign({ addressKey: adopter.email, list: `application:${variables.applicationId}` });

    const profile = { name: 'Tierheim', address: { line1: 'Hauptstraße 1', city: 'Berlin', country: 'DE' } };
    variables.organizationId = (await v1(lister, 'PUT', '/organization', profile)).id;
    await v1(adopter, 'PUT', '/organization', profile);

    const endpoint = () =>
      v1(lister, 'POST', '/webhook-endpoints', { url: variables.webhookUrl, events: ['pet.created'] });
    variables.endpointId = (await endpoint()).id;
    variables.endpointToDelete = (await endpoint()).id;

    const search = () => v1(lister, 'POST', '/saved-searches', { query: 'categoryId=1' });
    variables.savedSearchId = (await search()).id;
    variables.savedSearchToDelete = (await search()).id;

    variables.keyToRevoke = String((await v1(lister, 'POST', '/keys', { name: 'to revoke' })).id);
    variables.messageId = (
      await call(messages.baseUrl, lister, 'POST', '/messages', { message: 'Rex has found a home!' })
    ).id;
  }, 120_000);

  afterAll(async () => {
    await Promise.all([api?.stop(), messages?.stop(), worker?.stop()]);
    await receiver.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it.each([
    ['openapi.json', () => `${api.baseUrl}/v1`],
    ['openapi.messages.json', () => messages.baseUrl],
  ])(
    '%s: every operation and every variation answers as documented',
    async (file, baseUrl) => {
      const name = file.replace(/\.json$/, '');
      const configFile = join(work, `${name}.portman.json`);
      const collectionFile = join(work, `${name}.collection.json`);
      const reportFile = join(work, `${name}.report.json`);
      const document = JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Json;
      writeFileSync(configFile, JSON.stringify(portmanConfig(document, variables)));
      const run = (...args: string[]) =>
        promisify(execFile)(process.execPath, args, {
          cwd: work,
          env: { ...process.env, NODE_OPTIONS: '' },
          maxBuffer: 64 * 1024 * 1024,
        });
      await run(
        PORTMAN,
        '--local',
        join(ROOT, file),
        '--baseUrl',
        baseUrl(),
        '--output',
        collectionFile,
        '--portmanConfigFile',
        configFile,
        '--warn',
        'false',
        '--logAssignVariables',
        'false',
      );
      // newman exits non-zero on a failed assertion, which its report names; without a report it failed to run.
      const ran = await run(
        NEWMAN,
        'run',
        collectionFile,
        '--reporters',
        'json',
        '--reporter-json-export',
        reportFile,
      ).catch((error: Error) => error);
      if (!existsSync(reportFile)) throw ran;
      const { run: report } = JSON.parse(readFileSync(reportFile, 'utf8')) as Json;
      const failures = (report.failures as Json[]).map(
        (failure) => `${failure.source?.name}: ${failure.error?.test ?? ''} ${failure.error?.message}`,
      );
      expect(failures).toEqual([]);
      expect(report.stats.requests.total).toBeGreaterThan(Object.keys(document.paths).length);
    },
    600_000,
  );
});

function portmanConfig(document: Json, variables: Record<string, string>): Json {
  const paths = [
    'petId',
    'photoId',
    'orderId',
    'organizationId',
    'endpointId',
    'savedSearchId',
    'eventId',
    'keyId',
    'applicationId',
    'token',
  ];
  return {
    version: 1.0,
    tests: {
      contractTests: [
        {
          openApiOperation: '*::/*',
          statusSuccess: { enabled: true },
          contentType: { enabled: true },
          jsonBody: { enabled: true },
          schemaValidation: { enabled: true },
          headersPresent: { enabled: true },
        },
      ],
      variationTests: variationTests(document),
    },
    overwrites: [
      {
        openApiOperation: '*::/*',
        overwriteRequestPathVariables: [
          ...paths.map((key) => ({ key, value: `{{${key}}}`, insert: false })),
          { key: 'id', value: '{{messageId}}', insert: false },
        ],
      },
      // Each operation that removes or moves on its resource gets one of its own, kept from the others.
      ...Object.entries({
        deletePet: { petId: 'petToDelete' },
        deletePetPhoto: { photoId: 'photoToDelete' },
        approveOrder: { orderId: 'orderToApprove' },
        deliverOrder: { orderId: 'orderToDeliver' },
        cancelOrder: { orderId: 'orderToCancel' },
        returnOrder: { orderId: 'orderToReturn' },
        revokeKey: { keyId: 'keyToRevoke' },
        deleteWebhookEndpoint: { endpointId: 'endpointToDelete' },
        deleteSavedSearch: { savedSearchId: 'savedSearchToDelete' },
        reviewApplication: { applicationId: 'applicationToReview' },
        approveApplication: { applicationId: 'applicationToApprove' },
        declineApplication: { applicationId: 'applicationToDecline' },
        withdrawApplication: { applicationId: 'applicationToWithdraw' },
        submitApplication: { petId: 'petToApplyFor' },
        proposeMeeting: { applicationId: 'applicationToMeet' },
        listMeetings: { applicationId: 'applicationWithMeetings' },
        acceptMeeting: { applicationId: 'applicationWithMeetings', meetingId: 'meetingToAccept' },
        declineMeeting: { applicationId: 'applicationWithMeetings', meetingId: 'meetingToDecline' },
        cancelMeeting: { applicationId: 'applicationWithMeetings', meetingId: 'meetingToCancel' },
      }).map(([openApiOperationId, path]) => ({
        openApiOperationId,
        overwriteRequestPathVariables: Object.entries(path).map(([key, variable]) => ({
          key,
          value: `{{${variable}}}`,
        })),
      })),
      // The lister's own organisation stays for the operations after this one: the adopter unpublishes theirs.
      { openApiOperationId: 'deleteOrganization', overwriteRequestSecurity: { bearer: { token: '{{adopterKey}}' } } },
      // The example's external id is the one putPetByExternalId gave another of the lister's animals.
      { openApiOperationId: 'updatePet', overwriteRequestBody: [{ key: 'externalId', remove: true }] },
      // The example's pet is the lister's own; the adopter's is for ordering. A number, not `{{{petToOrder}}}`:
      // Portman's fuzzing reads the body as JSON.
      {
        openApiOperationId: 'placeOrder',
        overwriteRequestBody: [{ key: 'petId', value: Number(variables.petToOrder) }],
      },
      // The generated form asks one question twice, of the first type, not the example's its options are for.
      {
        openApiOperationId: 'putApplicationForm',
        overwriteRequestBody: [
          { key: 'fields[1]', remove: true },
          { key: 'fields[0].type', value: 'choice' },
        ],
      },
      // The example's answers are of another form, and each person applies once for a pet.
      {
        openApiOperationId: 'submitApplication',
        overwriteRequestSecurity: { bearer: { token: '{{adopterKey}}' } },
        overwriteRequestBody: [
          { key: 'answers', value: {} },
          { key: 'contact.email', value: uniqueEmail('contract') },
        ],
      },
      // The applicant's steps.
      ...['withdrawApplication', 'acceptMeeting', 'declineMeeting'].map((openApiOperationId) => ({
        openApiOperationId,
        overwriteRequestSecurity: { bearer: { token: '{{adopterKey}}' } },
      })),
      {
        openApiOperationId: 'proposeMeeting',
        overwriteRequestBody: [
          { key: 'startsAt', value: '{{meetingStartsAt}}' },
          { key: 'endsAt', value: '{{meetingEndsAt}}' },
        ],
      },
      // The examples' address is not on this machine.
      { openApiOperationId: 'createWebhookEndpoint', overwriteRequestBody: [{ key: 'url', value: '{{webhookUrl}}' }] },
      // The example disables the endpoint, which the operations after this one send to.
      {
        openApiOperationId: 'updateWebhookEndpoint',
        overwriteRequestBody: [
          { key: 'enabled', value: true },
          { key: 'url', value: '{{webhookUrl}}' },
        ],
      },
      { openApiOperationId: 'redeliverWebhookEvent', overwriteRequestBody: [{ key: 'eventId', value: '{{eventId}}' }] },
      {
        openApiOperationId: 'uploadPetPhoto',
        overwriteRequestBody: [{ key: 'file', value: '{{photoFile}}' }],
        // openapi-to-postman writes `multipart/form-data` without the boundary newman's body needs.
        overwriteRequestHeaders: [{ key: 'Content-Type', remove: true }],
      },
    ],
    globals: {
      collectionVariables: variables,
    },
  };
}
