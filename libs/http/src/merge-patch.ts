import type { Type } from '@nestjs/common';
import { validatedBody } from './validation.pipe';

/** The body of a PATCH: a JSON object, as the validation pipe's text gate let it through. */
export type MergePatch = Record<string, unknown>;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * RFC 7396 MergePatch(target, patch): an object merges member by member, recursively, `null` removing a
 * member; anything else (an array included) replaces the target whole.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const merged: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete merged[name];
    else merged[name] = mergePatch(merged[name], value);
  }
  return merged;
}

/** Whether applying `patch` depends on the resource as it is: it merges into a nested object. */
export function mergesIntoObjects(patch: MergePatch): boolean {
  return Object.values(patch).some(isObject);
}

/**
 * The change an RFC 7396 merge patch makes to a resource, validated as `type` (the resource's change DTO):
 * the fields the patch names, each with its value after the merge. A top-level `null` stays (the field is
 * cleared), and an object is merged into the field's value in `current` (the resource as its GET shows it;
 * needed only when `mergesIntoObjects`), so nested objects are validated whole, after the merge. Every
 * route that takes merge patches applies them so, and a nested object declared in a change DTO merges
 * member by member without more code.
 */
export function mergePatchChange<T extends object>(type: Type<T>, patch: MergePatch, current?: object): Promise<T> {
  const fields = Object.entries(patch).map(([name, value]) => [
    name,
    isObject(value) ? mergePatch((current as MergePatch | undefined)?.[name], value) : value,
  ]);
  return validatedBody(type, Object.fromEntries(fields));
}
