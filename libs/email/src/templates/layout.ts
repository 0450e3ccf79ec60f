/** One email as sent: its subject and both of its parts. */
export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

/** A block of an email's body, rendered in both parts: a paragraph, or a list of items. */
export type Block = { paragraph: string } | { items: readonly string[] } | { quote: string };

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML: what a recipient or an applicant wrote can never become markup. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character]!);
}

function textBlock(block: Block): string {
  if ('paragraph' in block) return block.paragraph;
  if ('quote' in block) return block.quote;
  return block.items.map((item) => `- ${item}`).join('\n');
}

function htmlBlock(block: Block): string {
  if ('paragraph' in block) return `<p style="margin:0 0 16px">${escapeHtml(block.paragraph)}</p>`;
  if ('quote' in block) {
    return (
      '<blockquote style="margin:0 0 16px;padding:8px 16px;border-left:4px solid #c9d6df;white-space:pre-wrap">' +
      `${escapeHtml(block.quote)}</blockquote>`
    );
  }
  return `<ul style="margin:0 0 16px;padding-left:24px">${block.items.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul>`;
}

/**
 * An email in the service's one layout: a heading, the blocks, and a footer saying why it was sent with the
 * unsubscribe link (the same link as the List-Unsubscribe header). The HTML is a single column of inline
 * styles that mail clients keep; the text part says the same, verbatim.
 */
export function layout(email: {
  subject: string;
  heading: string;
  blocks: readonly Block[];
  why: string;
  unsubscribeUrl: string;
}): RenderedEmail {
  const text = [
    email.heading,
    ...email.blocks.map(textBlock),
    '--',
    email.why,
    `Unsubscribe: ${email.unsubscribeUrl}`,
  ].join('\n\n');
  const html = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(email.subject)}</title></head>
<body style="margin:0;padding:0;background:#f4f6f8;font-family:Helvetica,Arial,sans-serif;color:#1f2933">
<div style="max-width:600px;margin:0 auto;padding:24px">
<div style="background:#ffffff;border-radius:8px;padding:24px;font-size:16px;line-height:1.5">
<h1 style="margin:0 0 16px;font-size:22px">${escapeHtml(email.heading)}</h1>
${email.blocks.map(htmlBlock).join('\n')}
</div>
<p style="margin:16px 0 0;font-size:13px;color:#52606d">${escapeHtml(email.why)}
<a href="${escapeHtml(email.unsubscribeUrl)}" style="color:#52606d">Unsubscribe</a></p>
</div>
</body>
</html>
`;
  return { subject: email.subject, text, html };
}
