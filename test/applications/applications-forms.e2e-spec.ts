import type { ApplicationDto } from '@app/applications';
import { newContact, submit, useApplicationsSuite } from '../support/applications';
import type { TestAccount } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';

/** A form with one field of each type, all required. */
const EVERY_TYPE = [
  { name: 'name_text', label: 'Your name', type: 'text', required: true },
  { name: 'home', label: 'Your home', type: 'textarea', required: true, help: 'Rooms, garden, stairs.' },
  { name: 'has_garden', label: 'A garden?', type: 'yesno', required: true },
  { name: 'housing', label: 'Housing', type: 'choice', required: true, options: ['flat', 'house'] },
  { name: 'pets', label: 'Other pets', type: 'multichoice', required: true, options: ['cat', 'dog', 'bird'] },
  { name: 'hours_alone', label: 'Hours alone a day', type: 'number', required: true },
  { name: 'moving_in', label: 'Move-in date', type: 'date', required: true },
  { name: 'vet_email', label: 'Your vet', type: 'email', required: true },
  { name: 'vet_phone', label: 'Your vet’s phone', type: 'phone', required: true },
];

const GOOD: Record<string, unknown> = {
  name_text: 'Alex',
  home: 'A house with a garden.',
  has_garden: true,
  housing: 'house',
  pets: ['cat', 'dog'],
  hours_alone: 2.5,
  moving_in: '2028-02-29',
  vet_email: 'vet@example.com',
  vet_phone: '+44 (20) 7946-0000',
};

describe('applications: the form, and submissions checked against it', () => {
  const suite = useApplicationsSuite();
  let app: TestHttpApp;
  let lister: TestAccount;
  let applicant: TestAccount;
  beforeAll(() => ({ app, lister, applicant } = suite));

  const putForm = (by: TestAccount, body: object) => app.http.put('/v1/application-form').set(by.auth).send(body);

  describe('the form', () => {
    it('is version 0 and empty until put; each PUT that changes the fields adds one; notifyEmail is the lister’s only', async () => {
      const shelter = await suite.account();
      const pet = await suite.pet(shelter);
      expect((await app.http.get('/v1/application-form').set(shelter.auth).expect(200)).body).toEqual({
        version: 0,
        fields: [],
      });
      const put = await putForm(shelter, { fields: EVERY_TYPE, notifyEmail: 'staff@shelter.example' }).expect(200);
      expect(put.body).toEqual({
        version: 1,
        fields: EVERY_TYPE,
        notifyEmail: 'staff@shelter.example',
        updatedAt: expect.any(String),
      });
      expect((await putForm(shelter, { fields: EVERY_TYPE }).expect(200)).body).toMatchObject({ version: 1 });
      const changed = (await putForm(shelter, { fields: EVERY_TYPE.slice(1) }).expect(200)).body;
      expect(changed).toMatchObject({ version: 2, fields: put.body.fields.slice(1) });
      expect(changed.notifyEmail).toBeUndefined();
      expect((await app.http.get('/v1/application-form').set(shelter.auth).expect(200)).body).toEqual(changed);
      const asApplicant = await app.http.get(`/v1/pets/${pet.id}/application-form`).set(applicant.auth).expect(200);
      expect(asApplicant.body).toEqual({ version: 2, fields: changed.fields });
    });

    it('is readable for a pet with a publishable key, and 404 for a pet naming nothing', async () => {
      const made = await app.http
        .post('/v1/keys')
        .set(lister.auth)
        .send({ name: 'site', kind: 'publishable', allowedOrigins: ['https://shelter.example'] })
        .expect(201);
      const site = { Authorization: `Bearer ${made.body.key}` };
      const pet = await suite.pet();
      await app.http.get(`/v1/pets/${pet.id}/application-form`).set(site).expect(200);
      await app.http.get('/v1/application-form').set(site).expect(403);
      const missing = await app.http.get('/v1/pets/999999999/application-form').set(applicant.auth).expect(404);
      expect(missing.body.code).toBe('not_found');
    });

    const refusals: Array<[string, object, string]> = [
      ['a bad name', { name: 'Has garden', label: 'x', type: 'yesno' }, 'fields.0.name'],
      ['a name of 41 characters', { name: `a${'b'.repeat(40)}`, label: 'x', type: 'yesno' }, 'fields.0.name'],
      ['an empty label', { name: 'a', label: ' ', type: 'yesno' }, 'fields.0.label'],
      ['a label of 201', { name: 'a', label: 'x'.repeat(201), type: 'yesno' }, 'fields.0.label'],
      ['help of 501', { name: 'a', label: 'x', type: 'yesno', help: 'x'.repeat(501) }, 'fields.0.help'],
      ['an unknown type', { name: 'a', label: 'x', type: 'colour' }, 'fields.0.type'],
      ['a choice without options', { name: 'a', label: 'x', type: 'choice' }, 'fields[0].options'],
      ['options on text', { name: 'a', label: 'x', type: 'text', options: ['a'] }, 'fields[0].options'],
      ['no options', { name: 'a', label: 'x', type: 'choice', options: [] }, 'fields.0.options'],
      [
        '21 options',
        { name: 'a', label: 'x', type: 'choice', options: [...Array(21).keys()].map(String) },
        'fields.0.options',
      ],
      ['repeated options', { name: 'a', label: 'x', type: 'multichoice', options: ['a', 'a'] }, 'fields[0].options'],
      ['an option of 101', { name: 'a', label: 'x', type: 'choice', options: ['x'.repeat(101)] }, 'fields.0.options'],
      ['an unknown member', { name: 'a', label: 'x', type: 'yesno', colour: 'red' }, 'fields.0.colour'],
    ];
    for (const [what, field, named] of refusals) {
      it(`refuses ${what} with 400 validation_failed naming ${named}`, async () => {
        const refused = await putForm(lister, { fields: [field] }).expect(400);
        expect(refused.body.code).toBe('validation_failed');
        expect(JSON.stringify(refused.body)).toContain(named);
      });
    }

    it('refuses a repeated name, 31 fields, an unknown body member and a bad notifyEmail', async () => {
      const field = { name: 'a', label: 'x', type: 'yesno' };
      expect((await putForm(lister, { fields: [field, field] }).expect(400)).body.message).toContain('fields[1].name');
      const many = [...Array(31).keys()].map((i) => ({ ...field, name: `f${i}` }));
      await putForm(lister, { fields: many }).expect(400);
      await putForm(lister, { fields: many.slice(0, 30) }).expect(200);
      await putForm(lister, { fields: [], extra: 1 }).expect(400);
      await putForm(lister, { fields: [], notifyEmail: 'not an email' }).expect(400);
      await putForm(lister, {}).expect(400);
      await putForm(lister, { fields: [] }).expect(200);
    });
  });

  describe('answers', () => {
    let shelter: TestAccount;
    let petId: number;
    beforeAll(async () => {
      shelter = await suite.account();
      await putForm(shelter, { fields: EVERY_TYPE }).expect(200);
      petId = (await suite.pet(shelter)).id;
    });
    const apply = (answers: Record<string, unknown>) => submit(app.http, applicant, petId, { answers });

    it('keeps every type’s answer in the form’s order, with its labels as they were', async () => {
      const reversed = Object.fromEntries(Object.entries(GOOD).reverse());
      const application: ApplicationDto = (await apply(reversed).expect(201)).body;
      expect(application.answers).toEqual(
        EVERY_TYPE.map(({ name, label, type }) => ({ name, label, type, value: GOOD[name] })),
      );
      expect(application.formVersion).toBe(1);
      await app.http.post(`/v1/applications/${application.id}/withdraw`).set(applicant.auth).expect(200);
    });

    const wrong: Array<[string, unknown]> = [
      ['name_text', ''],
      ['name_text', 'x'.repeat(501)],
      ['name_text', 12],
      ['home', 'x'.repeat(5001)],
      ['has_garden', 'yes'],
      ['has_garden', null],
      ['housing', 'castle'],
      ['housing', ['house']],
      ['pets', []],
      ['pets', ['cat', 'cat']],
      ['pets', ['fish']],
      ['pets', 'cat'],
      ['hours_alone', '2'],
      ['moving_in', '2027-02-29'],
      ['moving_in', '2028-2-1'],
      ['moving_in', '2028-02-29T00:00:00Z'],
      ['vet_email', 'vet@'],
      ['vet_phone', '12345'],
      ['vet_phone', '+44 abc 7946'],
      ['vet_phone', '+(((((()))))) 123'],
      ['vet_phone', '1'.repeat(21)],
    ];
    for (const [name, value] of wrong) {
      const given =
        typeof value === 'string' && value.length > 30 ? `${value.length} characters` : JSON.stringify(value);
      it(`refuses ${name} = ${given}, naming the field`, async () => {
        const refused = await apply({ ...GOOD, [name]: value }).expect(400);
        expect(refused.body).toMatchObject({ code: 'validation_failed', details: [{ field: `answers.${name}` }] });
      });
    }

    it('accepts the bounds: 1 and 500 characters of text, 5000 of textarea, 7 and 20 of a phone', async () => {
      for (const answers of [
        { name_text: 'x', home: 'y'.repeat(5000), vet_phone: '1234567' },
        { name_text: '😀'.repeat(500), vet_phone: '1'.repeat(20) },
      ]) {
        const made: ApplicationDto = (await apply({ ...GOOD, ...answers }).expect(201)).body;
        await app.http.post(`/v1/applications/${made.id}/withdraw`).set(applicant.auth).expect(200);
      }
    });

    it('refuses 1e999 (not a finite number), an unknown field and a missing required one', async () => {
      const huge = await app.http
        .post(`/v1/pets/${petId}/applications`)
        .set(applicant.auth)
        .set('Content-Type', 'application/json')
        .send(`{"answers":${JSON.stringify(GOOD).replace('2.5', '1e999')},"contact":${JSON.stringify(newContact())}}`)
        .expect(400);
      expect(JSON.stringify(huge.body)).toContain('hours_alone');
      expect((await apply({ ...GOOD, colour: 'red' }).expect(400)).body.details[0].field).toBe('answers.colour');
      const missing = Object.fromEntries(Object.entries(GOOD).filter(([name]) => name !== 'vet_phone'));
      expect((await apply(missing).expect(400)).body.details[0].field).toBe('answers.vet_phone');
    });

    it('leaves an optional field unanswered out, and needs answers even when empty', async () => {
      const optional = await suite.account();
      await putForm(optional, { fields: [{ name: 'note', label: 'Anything else?', type: 'text' }] }).expect(200);
      const pet = await suite.pet(optional);
      expect((await submit(app.http, applicant, pet.id).expect(201)).body.answers).toEqual([]);
      const body = { contact: newContact() };
      const refused = await app.http.post(`/v1/pets/${pet.id}/applications`).set(applicant.auth).send(body).expect(400);
      expect(refused.body.message).toContain('answers');
    });
  });

  describe('contact and body', () => {
    it('refuses a bad contact and unknown members, naming them', async () => {
      const pet = await suite.pet();
      for (const [contact, field] of [
        [{ name: '', email: 'a@example.com' }, 'contact.name'],
        [{ name: 'x'.repeat(101), email: 'a@example.com' }, 'contact.name'],
        [{ name: 'Alex', email: 'nope' }, 'contact.email'],
        [{ name: 'Alex', email: 'a@example.com', phone: '123' }, 'contact.phone'],
        [{ name: 'Alex' }, 'contact.email'],
      ] as const) {
        const refused = await submit(app.http, applicant, pet.id, { contact }).expect(400);
        expect(refused.body.details[0].field).toBe(field);
      }
      await submit(app.http, applicant, pet.id, { extra: true }).expect(400);
      await submit(app.http, applicant, pet.id, { message: 'x'.repeat(5001) }).expect(400);
      await submit(app.http, applicant, pet.id, { emailConsent: 'yes' }).expect(400);
    });
  });
});
