import { type EmailList, parseListKey } from './email-lists';
import { escapeHtml } from './templates/layout';

/** What a list is, as the pages name it. */
function listName(key: string): string {
  const list: EmailList | undefined = parseListKey(key);
  if (list?.kind === 'application') return `the emails about your adoption application ${list.id}`;
  if (list?.kind === 'saved_search') return `the email alerts of your saved search ${list.id}`;
  return 'the notifications of this shelter’s applications';
}

function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:48px 16px;background:#f4f6f8;font-family:Helvetica,Arial,sans-serif;color:#1f2933">
<main style="max-width:480px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px;line-height:1.5">
<h1 style="margin:0 0 16px;font-size:22px">${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>
`;
}

/** The link's page: what the button would stop; nothing changes until it is pressed (scanners fetch links). */
export function confirmationPage(address: string, list: string): string {
  return page(
    'Unsubscribe?',
    `<p>Stop sending ${escapeHtml(listName(list))} to <strong>${escapeHtml(address)}</strong>?</p>
<form method="post"><button type="submit" style="font-size:16px;padding:10px 20px;border:0;border-radius:6px;background:#1f6feb;color:#ffffff;cursor:pointer">Unsubscribe</button></form>`,
  );
}

/** The answer of the POST, whether the page's button or a mailbox provider sent it. */
export function unsubscribedPage(address: string, list: string): string {
  return page(
    'You are unsubscribed',
    `<p>${escapeHtml(address)} will receive no more of ${escapeHtml(listName(list))}.</p>`,
  );
}
