import type { ApplicationDto } from '@app/applications';
import { act, newContact, shown, submit, useApplicationsSuite } from '../support/applications';
import { createPet, TestAccount, uniqueEmail } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import { petStatus } from '../support/orders';

describe('applications: submitting, what each party sees, listing', () => {
  const suite = useApplicationsSuite();
  let app: TestHttpApp;
  let lister: TestAccount;
  let applicant: TestAccount;
  let stranger: TestAccount;
  beforeAll(() => ({ app, lister, applicant, stranger } = suite));

  it('answers 201 with Location, the applicant’s view; the pet stays available; the lister sees no contact until review', async () => {
    const pet = await suite.pet();
    const contact = { name: 'Alex Doe', email: uniqueEmail('alex'), phone: '+33 1 23 45 67 89' };
    const response = await submit(app.http, applicant, pet.id, { contact, emailConsent: true }).expect(201);
    const application: ApplicationDto = response.body;
    expect(response.headers.location).toBe(`/v1/applications/${application.id}`);
    expect(application).toEqual({
      id: expect.stringMatching(/^app_[A-Za-z0-9_-]{24}$/),
      petId: pet.id,
      status: 'submitted',
      role: 'applicant',
      formVersion: 0,
      answers: [],
      contact,
      emailConsent: true,
      history: [{ status: 'submitted', at: application.createdAt, by: 'applicant' }],
      createdAt: expect.any(String),
      updatedAt: application.createdAt,
    });
    expect(await petStatus(app.http, applicant, pet.id)).toBe('available');
    expect(await shown(app.http, applicant, application.id)).toEqual(application);
    const asLister = await shown(app.http, lister, application.id);
    expect(asLister).toEqual({ ...application, role: 'lister', contact: undefined });
    expect('contact' in asLister).toBe(false);
    await app.http.get(`/v1/applications/${application.id}`).set(stranger.auth).expect(404);
    const reviewed = (await act(app.http, lister, application.id, 'review').expect(200)).body;
    expect(reviewed).toMatchObject({ status: 'under_review', role: 'lister', contact });
    expect(JSON.stringify(reviewed)).not.toContain(applicant.email);
  });

  it('never shows the lister the contact of one declined or withdrawn straight from submitted', async () => {
    for (const [by, operation] of [
      [lister, 'decline'],
      [applicant, 'withdraw'],
    ] as const) {
      const made: ApplicationDto = (await submit(app.http, applicant, (await suite.pet()).id).expect(201)).body;
      await act(app.http, by, made.id, operation, { reason: 'Not now.' }).expect(200);
      const asLister = await shown(app.http, lister, made.id);
      expect(asLister.contact).toBeUndefined();
      expect(asLister.history.at(-1)).toMatchObject({ by: by === lister ? 'lister' : 'applicant', note: 'Not now.' });
    }
  });

  it('refuses a pet naming nothing (404), the caller’s own (403) and one not available (409 pet_not_available)', async () => {
    expect((await submit(app.http, applicant, 999_999_999).expect(404)).body.code).toBe('not_found');
    const own = await suite.pet();
    expect((await submit(app.http, lister, own.id).expect(403)).body.code).toBe('forbidden');
    for (const status of ['pending', 'sold']) {
      const pet = await createPet(app.http, lister, { status });
      expect((await submit(app.http, applicant, pet.id).expect(409)).body.code).toBe('pet_not_available');
    }
    await app.http.post('/v1/pets/0/applications').set(applicant.auth).send({}).expect(400);
  });

  it('counts people by contact email, compared as sign-up compares emails, not accounts', async () => {
    const pet = await suite.pet();
    const email = `xß-${Date.now()}@example.com`;
    await submit(app.http, applicant, pet.id, { contact: { name: 'A', email } }).expect(201);
    const other = await suite.account();
    for (const same of [email.replace('ß', 'SS'), email.replace('x', 'ｘ')]) {
      const refused = await submit(app.http, other, pet.id, { contact: { name: 'A', email: same } }).expect(409);
      expect(refused.body.code).toBe('application_exists');
    }
    // The cap (3 in this suite) counts the email's open applications, on any account.
    await submit(app.http, other, (await suite.pet()).id, { contact: { name: 'A', email } }).expect(201);
    const third = await submit(app.http, applicant, (await suite.pet()).id, { contact: { name: 'A', email } });
    expect(third.status).toBe(201);
    const fourth = await submit(app.http, other, (await suite.pet()).id, { contact: { name: 'A', email } }).expect(409);
    expect(fourth.body).toEqual({
      code: 'too_many_open_applications',
      message: 'A contact email may have at most 3 open applications.',
      status: 409,
    });
    // A final one counts no more, and the same pet may be applied for again.
    await act(app.http, applicant, third.body.id, 'withdraw').expect(200);
    await submit(app.http, other, (await suite.pet()).id, { contact: { name: 'A', email } }).expect(201);
  });

  it('lets many submissions for one person race: the cap and the one-per-pet rule hold', async () => {
    const email = uniqueEmail('racer');
    const pets = await Promise.all([1, 2, 3, 4, 5].map(() => suite.pet()));
    const answers = await Promise.all(
      [...pets, ...pets].map((pet) => submit(app.http, applicant, pet.id, { contact: { name: 'R', email } })),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(3);
    expect(answers.every((answer) => [201, 409].includes(answer.status))).toBe(true);
  });

  it('replays a submission sent again with its Idempotency-Key, and makes one application', async () => {
    const pet = await suite.pet();
    const key = `apply-${Date.now()}`;
    const body = { answers: {}, contact: newContact() };
    const send = () =>
      app.http.post(`/v1/pets/${pet.id}/applications`).set(applicant.auth).set('Idempotency-Key', key).send(body);
    const first = await send().expect(201);
    const again = await send().expect(201);
    expect(again.body).toEqual(first.body);
    const mine = (await app.http.get(`/v1/applications?petId=${pet.id}`).set(applicant.auth).expect(200)).body;
    expect(mine).toHaveLength(1);
  });

  describe('listing', () => {
    let shelter: TestAccount;
    let adopter: TestAccount;
    let made: ApplicationDto[];
    beforeAll(async () => {
      [shelter, adopter] = [await suite.account(), await suite.account()];
      const pets = [await suite.pet(shelter), await suite.pet(shelter)];
      made = [];
      for (let i = 0; i < 5; i++)
        made.push((await submit(app.http, adopter, pets[i % 2]!.id).expect(201)).body as ApplicationDto);
      await act(app.http, shelter, made[1]!.id, 'review').expect(200);
      // The shelter applies too, for another lister's pet: its list holds both sides.
      made.push((await submit(app.http, shelter, (await suite.pet()).id).expect(201)).body);
    });
    const list = (by: TestAccount, query: string) => app.http.get(`/v1/applications?${query}`).set(by.auth).expect(200);

    it('pages newest first with Link rel="next", both sides, each in its role', async () => {
      const seen: ApplicationDto[] = [];
      let url: string | undefined = '/v1/applications?limit=2';
      while (url) {
        const page: { body: ApplicationDto[]; headers: Record<string, string> } = await app.http
          .get(url)
          .set(shelter.auth)
          .expect(200);
        expect(page.body.length).toBeLessThanOrEqual(2);
        seen.push(...page.body);
        url = /<([^>]+)>; rel="next"/.exec(page.headers.link ?? '')?.[1];
      }
      expect(seen.map((application) => application.id)).toEqual(made.map((a) => a.id).reverse());
      expect(seen.map((application) => application.role)).toEqual(['applicant', ...Array(5).fill('lister')]);
      expect(seen.find((a) => a.id === made[0]!.id)!.contact).toBeUndefined();
      expect(seen.find((a) => a.id === made[1]!.id)!.contact).toBeDefined();
    });

    it('filters by role, status and pet', async () => {
      const ids = (body: ApplicationDto[]) => body.map((application) => application.id);
      expect(ids((await list(shelter, 'role=applicant')).body)).toEqual([made[5]!.id]);
      expect(ids((await list(shelter, 'role=lister&status=under_review')).body)).toEqual([made[1]!.id]);
      expect(ids((await list(shelter, `petId=${made[0]!.petId}`)).body)).toEqual([
        made[4]!.id,
        made[2]!.id,
        made[0]!.id,
      ]);
      expect((await list(adopter, 'role=lister')).body).toEqual([]);
      expect((await list(stranger, `petId=${made[0]!.petId}`)).body).toEqual([]);
    });

    it('refuses bad filters and cursors with 400', async () => {
      for (const query of ['role=owner', 'status=open', 'petId=0', 'limit=101', 'limit=0', 'cursor=nope'])
        await app.http.get(`/v1/applications?${query}`).set(shelter.auth).expect(400);
    });
  });
});
