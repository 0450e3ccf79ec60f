import { type Block, layout, type RenderedEmail } from './layout';

/** The application an email is about, as both kinds of recipient see it named. */
interface ApplicationRef {
  applicationId: string;
  petId: number;
  /** The pet's name when the sender had it at hand. */
  petName?: string;
}

/** The applicant's contact, shown to the lister once the application is past `submitted`. */
interface ContactData {
  name: string;
  email: string;
  phone?: string;
}

const STATUS_WORDS: Record<string, string> = {
  submitted: 'was received',
  under_review: 'is under review',
  approved: 'was approved',
  declined: 'was declined',
  withdrawn: 'was withdrawn',
  closed: 'was closed',
};

const MEETING_WORDS: Record<string, string> = {
  proposed: 'A meeting was proposed',
  accepted: 'The meeting was accepted',
  declined: 'The meeting was declined',
  cancelled: 'The meeting was cancelled',
};

const petOf = (ref: ApplicationRef) => ref.petName ?? `pet ${ref.petId}`;

const reference = (ref: ApplicationRef): Block => ({
  paragraph: `Application ${ref.applicationId}, pet ${ref.petId}.`,
});

const APPLICANT_WHY = 'You receive this email because you asked for email about your adoption application.';
const LISTER_WHY = "You receive this email because this address is your application form's notification address.";

/** A change of the application's state, to the applicant. */
export interface ApplicationStatusData extends ApplicationRef {
  status: string;
  closedReason?: string;
}

export function applicationStatus(data: ApplicationStatusData, unsubscribeUrl: string): RenderedEmail {
  const words = STATUS_WORDS[data.status] ?? `is now ${data.status}`;
  return layout({
    subject: `Your application for ${petOf(data)} ${words}`,
    heading: `Your application ${words}`,
    blocks: [
      { paragraph: `Your adoption application for ${petOf(data)} ${words}.` },
      ...(data.closedReason ? [{ paragraph: `Reason: ${data.closedReason}.` }] : []),
      reference(data),
    ],
    why: APPLICANT_WHY,
    unsubscribeUrl,
  });
}

/** A message of the conversation: the lister's to the applicant, or the applicant's to the lister. */
export interface ApplicationMessageData extends ApplicationRef {
  messageId: string;
  body: string;
  /** To the lister, once the application is past `submitted`. */
  contact?: ContactData;
}

export function applicationMessageToApplicant(data: ApplicationMessageData, unsubscribeUrl: string): RenderedEmail {
  return layout({
    subject: `A new message about your application for ${petOf(data)}`,
    heading: 'A new message from the lister',
    blocks: [{ paragraph: `About your application for ${petOf(data)}:` }, { quote: data.body }, reference(data)],
    why: APPLICANT_WHY,
    unsubscribeUrl,
  });
}

const contactBlocks = (contact: ContactData | undefined): Block[] =>
  contact
    ? [
        {
          items: [
            `Name: ${contact.name}`,
            `Email: ${contact.email}`,
            ...(contact.phone ? [`Phone: ${contact.phone}`] : []),
          ],
        },
      ]
    : [];

export function applicationMessageToLister(data: ApplicationMessageData, unsubscribeUrl: string): RenderedEmail {
  return layout({
    subject: `A new message from an applicant for ${petOf(data)}`,
    heading: 'A new message from an applicant',
    blocks: [
      { paragraph: `About the application for ${petOf(data)}:` },
      { quote: data.body },
      ...contactBlocks(data.contact),
      reference(data),
    ],
    why: LISTER_WHY,
    unsubscribeUrl,
  });
}

/** A new application, to the lister: never with the applicant's contact (it is `submitted`). */
export interface NewApplicationData extends ApplicationRef {
  /** The first message, when the application came with one. */
  message?: string;
}

export function newApplication(data: NewApplicationData, unsubscribeUrl: string): RenderedEmail {
  return layout({
    subject: `A new application for ${petOf(data)}`,
    heading: 'A new adoption application',
    blocks: [
      { paragraph: `Someone applied to adopt ${petOf(data)}. Their contact is shown once you review it.` },
      ...(data.message === undefined ? [] : [{ paragraph: 'Their message:' }, { quote: data.message }]),
      reference(data),
    ],
    why: LISTER_WHY,
    unsubscribeUrl,
  });
}

/** A meeting proposed, a step of it, or its reminder, to the applicant. */
export interface MeetingData extends ApplicationRef {
  meetingId: string;
  status: string;
  startsAt: string;
  endsAt: string;
  location?: string;
  reminder: boolean;
}

export function meeting(data: MeetingData, unsubscribeUrl: string): RenderedEmail {
  const what = data.reminder
    ? 'Reminder: your meeting'
    : (MEETING_WORDS[data.status] ?? `The meeting is ${data.status}`);
  const when = `${data.startsAt} to ${data.endsAt} (UTC)`;
  return layout({
    subject: `${what} about ${petOf(data)}`,
    heading: data.reminder ? 'Your meeting is tomorrow' : what,
    blocks: [
      { paragraph: `${what} about your application for ${petOf(data)}.` },
      { items: [`When: ${when}`, ...(data.location ? [`Where: ${data.location}`] : [])] },
      reference(data),
    ],
    why: APPLICANT_WHY,
    unsubscribeUrl,
  });
}
