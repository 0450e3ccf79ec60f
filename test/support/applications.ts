import { AccountsService } from '@app/accounts';
import type { ApplicationDto, ApplicationStatus } from '@app/applications';
import type TestAgent from 'supertest/lib/agent';
import { createApiApp } from './api-app';
import { createPet, signUp, TestAccount, uniqueEmail } from './factories';
import type { TestHttpApp } from './http-app';

/** A contact of a new person: the caps count each email apart. */
export function newContact(label = 'applicant') {
  return { name: 'Alex Doe', email: uniqueEmail(label) };
}

/** Submits an application; answers whatever the service says. */
export function submit(http: TestAgent, by: TestAccount, petId: number, body: Record<string, unknown> = {}) {
  return http
    .post(`/v1/pets/${petId}/applications`)
    .set(by.auth)
    .send({ answers: {}, contact: newContact(), ...body });
}

/** Asks for a transition of an application; answers whatever the service says. */
export function act(http: TestAgent, by: TestAccount, id: string, operation: string, body?: object) {
  const request = http.post(`/v1/applications/${id}/${operation}`).set(by.auth);
  return body ? request.send(body) : request;
}

/** The operations, by which party, that take a new application to `status`. */
const PATHS: Record<ApplicationStatus, Array<['lister' | 'applicant', string]>> = {
  submitted: [],
  under_review: [['lister', 'review']],
  approved: [
    ['lister', 'review'],
    ['lister', 'approve'],
  ],
  declined: [['lister', 'decline']],
  withdrawn: [['applicant', 'withdraw']],
  adopted: [
    ['lister', 'review'],
    ['lister', 'approve'],
  ],
  closed: [
    ['lister', 'review'],
    ['lister', 'approve'],
  ],
};

export interface ApplicationsSuite {
  app: TestHttpApp;
  lister: TestAccount;
  applicant: TestAccount;
  stranger: TestAccount;
  /** A new account on a plan the suite's request counts fit in. */
  account(): Promise<TestAccount>;
  /** A new available pet, of the lister unless said. */
  pet(owner?: TestAccount): Promise<{ id: number }>;
  /** An application of the applicant for a new pet of the lister (or `petId`), taken to `status`. */
  applicationIn(status: ApplicationStatus, petId?: number): Promise<ApplicationDto>;
}

/** Starts the api app before the suite's tests, with a lister, an applicant and a stranger. */
export function useApplicationsSuite(env: Record<string, string> = {}): ApplicationsSuite {
  const suite = {} as ApplicationsSuite;
  suite.account = async () => {
    const created = await signUp(suite.app.http);
    await suite.app.app.get(AccountsService).setPlan(created.email, 'business');
    return created;
  };
  suite.pet = (owner) => createPet(suite.app.http, owner ?? suite.lister);
  suite.applicationIn = async (status, petId) => {
    const http = suite.app.http;
    const pet = petId ?? (await suite.pet()).id;
    let application: ApplicationDto = (await submit(http, suite.applicant, pet).expect(201)).body;
    for (const [party, operation] of PATHS[status]) {
      const by = party === 'lister' ? suite.lister : suite.applicant;
      application = (await act(http, by, application.id, operation).expect(200)).body;
    }
    const orderPath = status === 'adopted' ? ['approve', 'deliver'] : status === 'closed' ? ['cancel'] : [];
    for (const operation of orderPath)
      await http.post(`/v1/store/orders/${application.orderId}/${operation}`).set(suite.lister.auth).expect(200);
    if (orderPath.length > 0) application = await shown(http, suite.applicant, application.id);
    return application;
  };
  beforeAll(async () => {
    suite.app = await createApiApp({
      env: { ORDERS_MAX_OPEN_PER_ACCOUNT: '1', APPLICATIONS_MAX_OPEN_PER_APPLICANT: '3', ...env },
    });
    [suite.lister, suite.applicant, suite.stranger] = [
      await suite.account(),
      await suite.account(),
      await suite.account(),
    ];
  });
  afterAll(() => suite.app.close());
  return suite;
}

/** The application as the party reads it. */
export async function shown(http: TestAgent, by: TestAccount, id: string): Promise<ApplicationDto> {
  return (await http.get(`/v1/applications/${id}`).set(by.auth).expect(200)).body;
}
