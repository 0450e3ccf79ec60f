/**
 * What a recipient can unsubscribe from, each email naming one: one application, one saved search, or all
 * of a lister's notifications.
 */
export type EmailList =
  { kind: 'application'; id: string } | { kind: 'saved_search'; id: string } | { kind: 'lister'; accountId: number };

/** The list as the tables and the tokens name it: `application:app_…`, `saved_search:srch_…`, `lister:42`. */
export function listKey(list: EmailList): string {
  return list.kind === 'lister' ? `lister:${list.accountId}` : `${list.kind}:${list.id}`;
}

/** The list a key names, or undefined for any other text. */
export function parseListKey(key: string): EmailList | undefined {
  const match = /^(application|saved_search|lister):(.+)$/.exec(key);
  if (!match) return undefined;
  const [, kind, id] = match as unknown as [string, EmailList['kind'], string];
  if (kind !== 'lister') return { kind, id };
  return /^[1-9]\d{0,15}$/.test(id) ? { kind, accountId: Number(id) } : undefined;
}
