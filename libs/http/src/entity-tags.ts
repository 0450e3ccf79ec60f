import { ValidationFailedError } from '@app/core';

/** What an `If-Match` or `If-None-Match` header asks for: any current representation, or one of these tags. */
export type EntityTagCondition = '*' | Array<{ tag: string; weak: boolean }>;

/**
 * One element of the list and what follows it: optional whitespace, the tag, then a comma or the end. Read
 * element by element (sticky), since a tag's opaque value may itself hold a comma.
 */
const LIST_ELEMENT = /[ \t]*(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"[ \t]*(?:,|$)/y;

/** RFC 9110 section 8.8.3: a strong entity tag for an opaque value. */
export function formatEntityTag(opaque: string): string {
  return `"${opaque}"`;
}

/**
 * Parses `If-Match` or `If-None-Match` (RFC 9110 13.1.1, 13.1.2): `*`, or a comma-separated list of entity
 * tags. Undefined when the header is absent; a malformed one is a `400` naming it.
 */
export function parseEntityTagCondition(header: string | undefined, name: string): EntityTagCondition | undefined {
  if (header === undefined) return undefined;
  if (header.trim() === '*') return '*';
  const tags: Array<{ tag: string; weak: boolean }> = [];
  LIST_ELEMENT.lastIndex = 0;
  do {
    const match = LIST_ELEMENT.exec(header);
    if (!match) {
      throw new ValidationFailedError(`${name} must be * or a list of entity tags such as "abc"`, [
        { field: name, message: `${name} is malformed` },
      ]);
    }
    tags.push({ tag: match[2]!, weak: match[1] !== undefined });
  } while (LIST_ELEMENT.lastIndex < header.length);
  return tags;
}

/**
 * The opaque values of a condition's tags that may match, under the strong comparison `If-Match` uses (weak
 * tags never match) or the weak one of `If-None-Match`; undefined for `*` (any current representation).
 */
export function conditionTags(condition: EntityTagCondition, comparison: 'strong' | 'weak'): string[] | undefined {
  if (condition === '*') return undefined;
  return condition.filter((entry) => comparison === 'weak' || !entry.weak).map((entry) => entry.tag);
}

/**
 * The versions `If-Match` names (strong comparison), for a resource whose versions are integers (microseconds
 * of its last change); undefined when the header is absent or `*` (any current one).
 */
export function matchingVersions(ifMatch: string | undefined): string[] | undefined {
  const condition = parseEntityTagCondition(ifMatch, 'If-Match');
  // A tag that is not a version matches no version.
  return condition && conditionTags(condition, 'strong')?.filter((tag) => /^[0-9]{1,19}$/.test(tag));
}

export interface PutPrecondition {
  versions?: string[];
  mayCreate: boolean;
}

/**
 * What `If-Match` asks of a PUT, which may create its resource: the versions it may replace (undefined for
 * `*` or no header: any) and whether it may create. With any `If-Match`, `*` included, it may not: the
 * condition is false when there is no current representation (RFC 9110 13.1.1), so the answer is `412`.
 */
export function putPrecondition(ifMatch: string | undefined): PutPrecondition {
  return { versions: matchingVersions(ifMatch), mayCreate: ifMatch === undefined };
}
