import { renderEmail } from './email-templates';

const UNSUBSCRIBE = 'https://pets.test/v1/unsubscribe/t.mac';
const ref = { applicationId: 'app_1', petId: 7 };

describe('the applications’ email templates', () => {
  it('quotes a message verbatim in the text part, and as text, never markup, in the HTML part', () => {
    const body = 'Hello,\n\n<b>bring ID</b> & a lead.';
    const email = renderEmail('application_message', { ...ref, messageId: 'amsg_1', body }, UNSUBSCRIBE);
    expect(email.text).toContain(body);
    expect(email.html).toContain('&lt;b&gt;bring ID&lt;/b&gt; &amp; a lead.');
    expect(email.html).not.toContain('<b>');
    expect(email.text).toContain(`Unsubscribe: ${UNSUBSCRIBE}`);
  });

  it('names the pet by name when given, else by id', () => {
    expect(renderEmail('application_status', { ...ref, status: 'approved' }, UNSUBSCRIBE).subject).toBe(
      'Your application for pet 7 was approved',
    );
    const named = renderEmail('application_status', { ...ref, petName: 'Rex', status: 'submitted' }, UNSUBSCRIBE);
    expect(named.subject).toBe('Your application for Rex was received');
  });

  it('shows the lister the contact only when the message carries it', () => {
    const contact = { name: 'Alex Doe', email: 'alex@example.com' };
    const without = renderEmail('lister_message', { ...ref, messageId: 'amsg_1', body: 'Hi' }, UNSUBSCRIBE);
    const withContact = renderEmail(
      'lister_message',
      { ...ref, messageId: 'amsg_1', body: 'Hi', contact },
      UNSUBSCRIBE,
    );
    expect(without.text).not.toContain('alex@example.com');
    expect(withContact.text).toContain('Email: alex@example.com');
  });

  it('tells a reminder from a step of the meeting', () => {
    const meeting = {
      ...ref,
      meetingId: 'mtg_1',
      status: 'accepted',
      startsAt: '2026-12-03T10:00:00.000Z',
      endsAt: '2026-12-03T11:00:00.000Z',
    };
    expect(renderEmail('meeting', { ...meeting, reminder: false }, UNSUBSCRIBE).subject).toBe(
      'The meeting was accepted about pet 7',
    );
    const reminder = renderEmail('meeting', { ...meeting, reminder: true }, UNSUBSCRIBE);
    expect(reminder.subject).toBe('Reminder: your meeting about pet 7');
    expect(reminder.text).toContain('When: 2026-12-03T10:00:00.000Z to 2026-12-03T11:00:00.000Z (UTC)');
  });
});
