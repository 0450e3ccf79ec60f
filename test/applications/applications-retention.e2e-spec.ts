import { ApplicationDto, ApplicationsJobsSettings, ApplicationStatus } from '@app/applications';
import { ApplicationsRepository } from '../../libs/applications/src/applications.repository';
import { ApplicationsRetention } from '../../libs/applications/src/retention/applications-retention';
import { act, shown, useApplicationsSuite } from '../support/applications';
import { withDatabase } from '../support/database';
import { uniqueEmail } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';

const DAYS = 30;

describe('applications: personal data erased past retention', () => {
  const suite = useApplicationsSuite();
  let app: TestHttpApp;
  let retention: ApplicationsRetention;
  beforeAll(() => {
    app = suite.app;
    const settings = Object.assign(new ApplicationsJobsSettings(), { APPLICATIONS_RETENTION_DAYS: DAYS });
    retention = new ApplicationsRetention(app.app.get(ApplicationsRepository), settings);
  });

  /** An application in `status` with a form's answer and two messages, ended `endedDaysAgo` days ago. */
  const withConversation = async (status: ApplicationStatus, endedDaysAgo?: number) => {
    await app.http
      .put('/v1/application-form')
      .set(suite.lister.auth)
      .send({ fields: [{ name: 'has_garden', label: 'A garden?', type: 'yesno' }] })
      .expect(200);
    const pet = await suite.pet();
    const submitted: ApplicationDto = (
      await app.http
        .post(`/v1/pets/${pet.id}/applications`)
        .set(suite.applicant.auth)
        .send({
          answers: { has_garden: true },
          contact: { name: 'Alex', email: uniqueEmail(status) },
          message: 'Hi',
        })
        .expect(201)
    ).body;
    await act(app.http, suite.lister, submitted.id, 'review').expect(200);
    await app.http
      .post(`/v1/applications/${submitted.id}/messages`)
      .set(suite.lister.auth)
      .send({ body: 'Hello Alex' })
      .expect(201);
    if (status === 'declined') await act(app.http, suite.lister, submitted.id, 'decline').expect(200);
    if (status === 'withdrawn') await act(app.http, suite.applicant, submitted.id, 'withdraw').expect(200);
    if (status === 'closed') await app.http.delete(`/v1/pets/${pet.id}`).set(suite.lister.auth).expect(204);
    if (endedDaysAgo !== undefined)
      await withDatabase((client) =>
        client.query(`UPDATE applications SET ended_at = now() - make_interval(days => $2) WHERE id = $1`, [
          submitted.id,
          endedDaysAgo,
        ]),
      );
    return shown(app.http, suite.applicant, submitted.id);
  };
  const stored = (id: string) =>
    withDatabase(async (client) => ({
      application: (
        await client.query(
          'SELECT status, answers, contact, contact_email_canonical, history FROM applications WHERE id = $1',
          [id],
        )
      ).rows[0],
      bodies: (await client.query('SELECT body FROM application_messages WHERE application_id = $1 ORDER BY seq', [id]))
        .rows,
    }));

  it('erases contact, answers and message bodies of applications declined, withdrawn or closed past it; keeps the rest', async () => {
    const past = await Promise.all(
      (['declined', 'withdrawn', 'closed'] as const).map((status) => withConversation(status, DAYS + 1)),
    );
    const recent = await withConversation('declined', DAYS - 1);
    const open = await withConversation('under_review');

    await retention.run();

    for (const application of past) {
      const { application: row, bodies } = await stored(application.id);
      expect(row).toEqual({
        status: application.status,
        answers: [],
        contact: null,
        contact_email_canonical: null,
        history: application.history,
      });
      expect(bodies).toEqual([{ body: null }, { body: null }]);
      for (const party of [suite.applicant, suite.lister]) {
        const seen = await shown(app.http, party, application.id);
        expect(seen).toMatchObject({ status: application.status, answers: [], history: application.history });
        expect('contact' in seen).toBe(false);
        const messages = (await app.http.get(`/v1/applications/${application.id}/messages`).set(party.auth).expect(200))
          .body as Array<{ body: unknown }>;
        expect(messages.map((message) => message.body)).toEqual([null, null]);
      }
    }
    for (const application of [recent, open]) {
      const { application: row, bodies } = await stored(application.id);
      expect(row.answers).toEqual([{ name: 'has_garden', label: 'A garden?', type: 'yesno', value: true }]);
      expect(row.contact).toEqual(application.contact);
      expect(bodies).toEqual([{ body: 'Hi' }, { body: 'Hello Alex' }]);
    }
    // A second run finds nothing left to erase, and changes nothing.
    await retention.run();
    expect((await stored(past[0]!.id)).application.answers).toEqual([]);
  });
});
