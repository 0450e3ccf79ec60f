import { characterCount, ValidationFailedError } from '@app/core';
import { isEmail } from 'class-validator';

export const FIELD_TYPES = [
  'text',
  'textarea',
  'yesno',
  'choice',
  'multichoice',
  'number',
  'date',
  'email',
  'phone',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** One question of a lister's form, as stored. */
export interface FormField {
  name: string;
  label: string;
  type: FieldType;
  required: boolean;
  options?: string[];
  help?: string;
}

/** An answer as an application keeps it: the question as it was asked, and the value given. */
export interface Answer {
  name: string;
  label: string;
  type: FieldType;
  value: AnswerValue;
}

export type AnswerValue = string | number | boolean | string[];

export const FIELD_NAME = /^[a-z][a-z0-9_]{0,39}$/;

/** Digits, spaces and `+ - ( )`, 7 to 20 of them, with at least 7 digits. */
export function isPhone(value: string): boolean {
  return /^[0-9 +\-()]{7,20}$/.test(value) && (value.match(/[0-9]/g) ?? []).length >= 7;
}

/** `YYYY-MM-DD` naming a day of the calendar (not 2026-02-30). */
function isDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === value;
}

/** An email address as sign-up accepts one: at most 254 characters. */
function isEmailAddress(value: string): boolean {
  return characterCount(value) <= 254 && isEmail(value);
}

const textOf = (min: number, max: number) => (value: unknown) =>
  typeof value === 'string' && characterCount(value) >= min && characterCount(value) <= max;

/** What each type accepts, and how its refusal reads. */
const ANSWER_RULES: Record<FieldType, { accepts: (value: unknown, field: FormField) => boolean; wants: string }> = {
  text: { accepts: textOf(1, 500), wants: 'a string of 1 to 500 characters' },
  textarea: { accepts: textOf(1, 5000), wants: 'a string of 1 to 5000 characters' },
  yesno: { accepts: (value) => typeof value === 'boolean', wants: 'true or false' },
  choice: {
    accepts: (value, field) => typeof value === 'string' && field.options!.includes(value),
    wants: 'one of the field’s options',
  },
  multichoice: {
    accepts: (value, field) =>
      Array.isArray(value) &&
      value.length > 0 &&
      new Set(value).size === value.length &&
      value.every((member) => typeof member === 'string' && field.options!.includes(member)),
    wants: 'one or more distinct members of the field’s options',
  },
  number: { accepts: (value) => typeof value === 'number' && Number.isFinite(value), wants: 'a finite number' },
  date: { accepts: (value) => typeof value === 'string' && isDate(value), wants: 'a date as YYYY-MM-DD' },
  email: { accepts: (value) => typeof value === 'string' && isEmailAddress(value), wants: 'an email address' },
  phone: {
    accepts: (value) => typeof value === 'string' && isPhone(value),
    wants: '7 to 20 digits, spaces and + - ( ), with at least 7 digits',
  },
};

function refuse(field: string, message: string): never {
  throw new ValidationFailedError(`${field} ${message}`, [{ field, message: `${field} ${message}` }]);
}

/**
 * Checks what the per-field validation of the body cannot see: names unique in the form, and `options`
 * (distinct) given exactly for the choice types.
 */
export function checkForm(fields: readonly FormField[]): void {
  const names = new Set<string>();
  fields.forEach((field, index) => {
    const at = `fields[${index}]`;
    if (names.has(field.name)) refuse(`${at}.name`, `repeats the name ${field.name}`);
    names.add(field.name);
    const choosing = field.type === 'choice' || field.type === 'multichoice';
    if (choosing && field.options === undefined) refuse(`${at}.options`, `is required for a ${field.type} field`);
    if (!choosing && field.options !== undefined) refuse(`${at}.options`, `is only for choice and multichoice fields`);
    if (field.options && new Set(field.options).size !== field.options.length)
      refuse(`${at}.options`, 'must be distinct');
  });
}

/**
 * The answers checked against the form, in the form's order with its labels: an unknown name, a required
 * field unanswered and a value its type refuses are each refused naming the field. An optional field not
 * answered is left out.
 */
export function answersFor(fields: readonly FormField[], given: Record<string, unknown>): Answer[] {
  const known = new Set(fields.map((field) => field.name));
  const unknown = Object.keys(given).find((name) => !known.has(name));
  if (unknown !== undefined) refuse(`answers.${unknown}`, 'is not a field of the form');
  return fields.flatMap((field): Answer[] => {
    const value = given[field.name];
    if (value === undefined) {
      if (field.required) refuse(`answers.${field.name}`, 'is required');
      return [];
    }
    const rule = ANSWER_RULES[field.type];
    if (!rule.accepts(value, field)) refuse(`answers.${field.name}`, `must be ${rule.wants}`);
    return [{ name: field.name, label: field.label, type: field.type, value: value as AnswerValue }];
  });
}
