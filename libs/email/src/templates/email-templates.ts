import {
  applicationMessageToApplicant,
  applicationMessageToLister,
  applicationStatus,
  meeting,
  newApplication,
} from './application-emails.template';
import type { RenderedEmail } from './layout';
import { savedSearchDigest } from './saved-search-digest.template';

/** Every email the service sends, by name: each renders its data and its unsubscribe link. */
const EMAIL_TEMPLATES = {
  saved_search_digest: savedSearchDigest,
  application_status: applicationStatus,
  application_message: applicationMessageToApplicant,
  meeting,
  lister_new_application: newApplication,
  lister_message: applicationMessageToLister,
};

export type EmailTemplateName = keyof typeof EMAIL_TEMPLATES;

/** The data a template renders, as `EmailOutbox.enqueue` takes it. */
export type EmailTemplateData<Name extends EmailTemplateName> = Parameters<(typeof EMAIL_TEMPLATES)[Name]>[0];

/** Renders a stored notification (the row's template name, checked against the registry). */
export function renderEmail(template: string, data: unknown, unsubscribeUrl: string): RenderedEmail {
  const render = EMAIL_TEMPLATES[template as EmailTemplateName] as
    ((data: unknown, unsubscribeUrl: string) => RenderedEmail) | undefined;
  if (!render) throw new Error(`no email template ${template}`);
  return render(data, unsubscribeUrl);
}
