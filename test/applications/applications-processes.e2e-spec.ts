import type { ApplicationDto } from '@app/applications';
import { act, submit, useApplicationsSuite } from '../support/applications';
import { type TestAccount, uniqueEmail } from '../support/factories';
import { petStatus } from '../support/orders';
import { startWorker } from '../support/messages';
import { AppProcess, startServing, waitFor } from '../support/processes';
import { together } from '../support/rate-limiting';

const APPLICANTS = 8;

/**
 * Races of applications' submissions and transitions over two api processes sharing PostgreSQL and Redis: the accounts and
 * applications are made in-process, the racing requests go to the two processes in turn.
 */
describe('applications across processes', () => {
  // Holds that run out at once: no worker runs until the last test.
  const suite = useApplicationsSuite({ ORDER_HOLD_SECONDS: '1' });
  const apis: AppProcess[] = [];
  const urls: string[] = [];

  /** A transition sent to the api process `i % 2`. */
  const post = async (i: number, by: TestAccount, path: string) => {
    const response = await fetch(`${urls[i % 2]}/v1/applications/${path}`, { method: 'POST', headers: by.auth });
    return { status: response.status, body: (await response.json()) as ApplicationDto & { code?: string } };
  };

  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      // No connection cap: every concurrent request comes from this one address.
      const api = await startServing('api', {
        MAX_CONNECTIONS_PER_CLIENT: '0',
        APPLICATIONS_MAX_OPEN_PER_APPLICANT: '3',
      });
      apis.push(api);
      urls.push(api.baseUrl);
    }
  });
  afterAll(() => Promise.all(apis.map((api) => api.stop())));

  /** Applications of `count` people for one new pet, each under review. */
  const underReview = async (count: number) => {
    const pet = await suite.pet();
    const applications: ApplicationDto[] = [];
    for (let i = 0; i < count; i++) {
      const submitted = (await submit(suite.app.http, suite.applicant, pet.id).expect(201)).body as ApplicationDto;
      applications.push((await act(suite.app.http, suite.lister, submitted.id, 'review').expect(200)).body);
    }
    return { petId: pet.id, applications };
  };

  it('holds one person’s cap of 3 and one application per pet while its submissions race on both processes', async () => {
    const email = uniqueEmail('racer');
    const pets = await Promise.all([1, 2, 3, 4, 5].map(() => suite.pet()));
    // Each pet's two submissions go to different processes.
    const answers = await together(pets.length * 2, async (i) => {
      const petId = pets[Math.floor(i / 2)]!.id;
      const response = await fetch(`${urls[i % 2]}/v1/pets/${petId}/applications`, {
        method: 'POST',
        headers: { ...suite.applicant.auth, 'content-type': 'application/json' },
        body: JSON.stringify({ answers: {}, contact: { name: 'R', email } }),
      });
      return { status: response.status, petId };
    });
    const made = answers.filter((answer) => answer.status === 201);
    expect(made).toHaveLength(3);
    expect(new Set(made.map((answer) => answer.petId)).size).toBe(3);
    expect(answers.filter((answer) => answer.status === 409)).toHaveLength(7);
  });

  it(`approves exactly one of ${APPLICANTS} approvals racing for one pet; the others get 409 pet_not_available`, async () => {
    const { petId, applications } = await underReview(APPLICANTS);
    const answers = await together(APPLICANTS, (i) => post(i, suite.lister, `${applications[i]!.id}/approve`));
    const approved = answers.filter((answer) => answer.status === 200);
    expect(approved).toHaveLength(1);
    expect(approved[0]!.body).toMatchObject({ status: 'approved', orderId: expect.any(Number) });
    expect(answers.filter((answer) => answer.body.code === 'pet_not_available')).toHaveLength(APPLICANTS - 1);
    expect(await petStatus(suite.app.http, suite.lister, petId)).toBe('pending');
    const listed = await suite.app.http.get(`/v1/applications?petId=${petId}`).set(suite.lister.auth).expect(200);
    const statuses = (listed.body as ApplicationDto[]).map((application) => application.status).sort();
    expect(statuses).toEqual(['approved', ...Array(APPLICANTS - 1).fill('under_review')]);
    const orders = await suite.app.http.get(`/v1/store/orders?petId=${petId}`).set(suite.lister.auth).expect(200);
    expect(orders.body).toHaveLength(1);
  });

  it('runs an approval and a withdrawal that race one after the other: the pet is held only by an approval that stands', async () => {
    for (let round = 0; round < 4; round++) {
      const { petId, applications } = await underReview(1);
      const id = applications[0]!.id;
      const answers = await together(4, (i) =>
        i % 2 === 0 ? post(i, suite.lister, `${id}/approve`) : post(i, suite.applicant, `${id}/withdraw`),
      );
      expect(answers.every((answer) => answer.status === 200 || answer.status === 409)).toBe(true);
      const final = (await suite.app.http.get(`/v1/applications/${id}`).set(suite.applicant.auth).expect(200))
        .body as ApplicationDto;
      expect(final.status).toBe('withdrawn');
      expect(await petStatus(suite.app.http, suite.lister, petId)).toBe('available');
      if (final.orderId !== undefined) {
        const order = await suite.app.http.get(`/v1/store/orders/${final.orderId}`).set(suite.applicant.auth);
        expect(order.body).toMatchObject({ status: 'cancelled', cancellationReason: 'application_withdrawn' });
      }
    }
  });

  it('closes an approved application whose order’s hold a worker process expires', async () => {
    const { applications } = await underReview(1);
    const approved: ApplicationDto = (
      await act(suite.app.http, suite.lister, applications[0]!.id, 'approve').expect(200)
    ).body;
    const worker = await startWorker();
    try {
      const read = async () =>
        (await suite.app.http.get(`/v1/applications/${approved.id}`).set(suite.applicant.auth).expect(200))
          .body as ApplicationDto;
      await waitFor(async () => (await read()).status === 'closed', 20_000, 'the application to close');
      expect(await read()).toMatchObject({ closedReason: 'order_cancelled', orderId: approved.orderId });
      expect((await read()).history.at(-1)!.by).toBe('service');
    } finally {
      await worker.stop();
    }
  });
});
