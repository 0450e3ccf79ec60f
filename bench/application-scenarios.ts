import { encodeCursor } from '@app/http';
import { listSeededPets } from './support/database';
import type { LoadRequest } from './support/load';
import { bearer, json } from './support/requests';
import { type HttpScenario, oncePerContext, type ScenarioContext } from './support/scenario';
import {
  applicationAccounts,
  CALLERS,
  deleteApplicationsTo,
  seedCallersApplications,
  seedInbox,
  type SeededCaller,
} from './support/seeded-applications';
import { SPREAD_REQUESTS, spreadTwin } from './support/spread';

/** The seeded accounts of the applications' scenarios, looked up once. */
export const accountsOf = oncePerContext(({ stores }) => applicationAccounts(stores));

/** The applications among the callers, seeded once. */
const callersApplications = oncePerContext(async (context) => {
  const { callers } = await accountsOf(context);
  await seedCallersApplications(context.stores, callers, context.seedPets);
  return callers;
});

/** The two inboxes whose pages are compared: 1,000 applications received, and 1,000,000. */
const INBOXES = [
  { name: 'applications-inbox-1k', count: 1_000, lister: 'smallInbox' },
  { name: 'applications-inbox-1m', count: 1_000_000, lister: 'largeInbox' },
] as const;

/** Each inbox seeded once: its lister and the seq range of its applications. */
const inboxes = oncePerContext(async (context) => {
  const accounts = await accountsOf(context);
  const seeded = [];
  for (const { count, lister } of INBOXES)
    seeded.push({
      lister: accounts[lister],
      ...(await seedInbox(context.stores, accounts.callers, accounts[lister], count, context.seedPets)),
    });
  return seeded;
});

const listApplications = (caller: SeededCaller, query: string): LoadRequest => ({
  method: 'GET',
  path: `/v1/applications?${query}&limit=20`,
  headers: bearer(caller.key),
});

/** One caller's first page of the applications it made. */
const LIST_APPLICATIONS: HttpScenario = {
  name: 'list-applications',
  title: 'GET /v1/applications?role=applicant&limit=20',
  server: 'api',
  requests: async (context) => [listApplications((await callersApplications(context))[0]!, 'role=applicant')],
};

/**
 * The callers' first pages, each caller's own, as applicant and as lister in turn: what a page costs when no
 * two requests read the same account's applications. Held to 2× `pages-spread`.
 */
const LIST_APPLICATIONS_SPREAD = spreadTwin(
  LIST_APPLICATIONS,
  `${CALLERS.toLocaleString('en-US')} callers, as applicant and lister in turn`,
  async (i, context) =>
    listApplications((await callersApplications(context))[i % CALLERS]!, `role=${i % 2 ? 'lister' : 'applicant'}`),
);

const INBOX_QUERY = 'role=lister&status=submitted';

/**
 * A lister's inbox, `submitted` newest first, with 1,000 and with 1,000,000 applications received: the
 * first page, and pages from all through the inbox (each cursor with 60 older applications, 30 of them
 * submitted, behind it). Held to each other within 1.2×: a page reads the lister's own index.
 */
const INBOX_SCENARIOS = INBOXES.flatMap(({ name, count }, index): HttpScenario[] => {
  const inbox = async (context: ScenarioContext) => (await inboxes(context))[index]!;
  const shared: HttpScenario = {
    name,
    title: `GET /v1/applications?${INBOX_QUERY}&limit=20, ${count.toLocaleString('en-US')} applications received`,
    server: 'api',
    requests: async (context) => [listApplications((await inbox(context)).lister, INBOX_QUERY)],
  };
  const twin = spreadTwin(shared, 'pages all through the inbox', async (i, context) => {
    const { lister, first, last } = await inbox(context);
    const before = first + 60 + Math.floor(((last + 1 - first - 60) * i) / SPREAD_REQUESTS);
    return listApplications(lister, `${INBOX_QUERY}&cursor=${encodeCursor(before)}`);
  });
  return [shared, twin];
});

/** How many submissions `submit-application` sends a run: more than a run reaches at any rate this machine answers. */
const SUBMISSIONS = 30_000;
/** The pets they are for, each listed by the submissions' lister. */
const SUBMITTED_PETS = 1_000;

/** The submissions' lister's form: what each submission answers. */
const BENCH_FORM = {
  fields: [
    { name: 'has_garden', label: 'A garden?', type: 'yesno', required: true },
    { name: 'household', label: 'Who lives with you?', type: 'textarea', required: true },
    { name: 'experience', label: 'Kept a pet before?', type: 'choice', options: ['never', 'some', 'years'] },
  ],
};

const putForm = oncePerContext(async (context) => {
  const { submissions } = await accountsOf(context);
  const put = await fetch(`${context.apiUrl}/v1/application-form`, {
    method: 'PUT',
    headers: json(submissions.key),
    body: JSON.stringify(BENCH_FORM),
  });
  if (put.status !== 200) throw new Error(`could not set the bench form: ${put.status}`);
});

/**
 * The bench account applies for the submissions' lister's pets, each submission with a contact email of its
 * own (so neither cap refuses it), answers to the form and a first message. Before each run the lister's
 * applications are deleted. Held to 1.5× the CPU per answer of `POST /v1/pets`.
 */
const SUBMIT_APPLICATION: HttpScenario = {
  name: 'submit-application',
  title: `POST /v1/pets/{petId}/applications, ${SUBMITTED_PETS.toLocaleString('en-US')} pets, each with its own email`,
  server: 'api',
  dealt: true,
  counted: 201,
  requests: async (context) => {
    const { submissions } = await accountsOf(context);
    const pets = await listSeededPets(context.stores, submissions.accountId, SUBMITTED_PETS);
    if (pets.length < SUBMITTED_PETS) throw new Error(`submit-application found ${pets.length} pets to list`);
    return Array.from({ length: SUBMISSIONS }, (_, i) => ({
      method: 'POST',
      path: `/v1/pets/${pets[i % pets.length]}/applications`,
      headers: json(context.key),
      body: JSON.stringify({
        answers: { has_garden: i % 2 === 0, household: 'Two adults and a cat.', experience: 'some' },
        contact: { name: 'Bench Applicant', email: `submitted-${i}@bench.example` },
        message: 'Hello! We would love to meet this one.',
      }),
    }));
  },
  prepare: async (context) => {
    await putForm(context);
    await deleteApplicationsTo(context.stores, (await accountsOf(context)).submissions);
  },
};

export const APPLICATION_SCENARIOS: HttpScenario[] = [
  SUBMIT_APPLICATION,
  LIST_APPLICATIONS,
  LIST_APPLICATIONS_SPREAD,
  ...INBOX_SCENARIOS,
];

/** The scenario names the targets compare (bench/targets.ts). */
export const APPLICATION_TARGETS = {
  submit: SUBMIT_APPLICATION.name,
  list: LIST_APPLICATIONS,
  inboxes: INBOXES.map(({ name }) => name),
};
