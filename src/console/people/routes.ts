/**
 * People (operators only): every operator and member, with their second factor and lock state; creating one
 * (a password is made and shown once, to hand over), and on a person's page disable, enable, unlock, a new
 * password, forgetting the authenticator. Nobody changes their own account here (404). Every change is audited.
 */
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { ConsoleUserError, type ConsoleUser } from '../../people/accounts.js';
import type { SafeHtml } from '../../hosted/html.js';
import { admitOperatorsOnly, viewerOf } from '../access.js';
import { sendNotFound, sendPage, seeOther } from '../replies.js';
import { CsrfField, DoneQuery, FormText, IdParam, NoQuery, type RequestOf } from '../schemas.js';
import type { ConsoleSectionRoutes } from '../section.js';
import type { ConsoleServices } from '../services.js';
import type { Viewer } from '../viewer.js';
import {
  changePerson,
  createPerson,
  findPerson,
  peopleAndClients,
  personDetails,
  PERSON_CHANGES,
  resetPassword,
  type PersonChange,
} from './queries.js';
import { newPasswordShown, newPersonShown, peoplePage, personPage } from './views.js';

async function sendPeoplePage(
  services: ConsoleServices,
  reply: FastifyReply,
  viewer: Viewer,
  extras: { problems?: string[]; shown?: SafeHtml } = {},
  status = 200,
): Promise<FastifyReply> {
  const { people, clients } = await peopleAndClients(services);
  return sendPage(reply, peoplePage({ viewer, navigation: services.navigation, people, clients, now: services.now(), ...extras }), status);
}

const PeopleRoute = { querystring: NoQuery };

async function showPeople(services: ConsoleServices, request: RequestOf<typeof PeopleRoute>, reply: FastifyReply): Promise<FastifyReply> {
  return sendPeoplePage(services, reply, viewerOf(request));
}

const AddPersonRoute = {
  querystring: NoQuery,
  body: Type.Object({
    ...CsrfField,
    email: Type.Optional(FormText),
    name: Type.Optional(FormText),
    role: Type.Optional(FormText),
    client: Type.Optional(FormText),
  }),
};

async function addPerson(services: ConsoleServices, request: RequestOf<typeof AddPersonRoute>, reply: FastifyReply): Promise<FastifyReply> {
  const viewer = viewerOf(request);
  const { email = '', name = '', client } = request.body;
  const role = request.body.role === 'operator' ? 'operator' : 'member';
  try {
    const { created, password } = await createPerson(services, viewer, { email, name, role, client });
    return await sendPeoplePage(services, reply, viewer, { shown: newPersonShown(created.name, password) }, 201);
  } catch (error) {
    if (error instanceof ConsoleUserError) return sendPeoplePage(services, reply, viewer, { problems: [...error.problems] }, 400);
    throw error;
  }
}

async function sendPersonPage(
  services: ConsoleServices,
  reply: FastifyReply,
  viewer: Viewer,
  person: ConsoleUser,
  done: string | undefined,
  shown?: SafeHtml,
): Promise<FastifyReply> {
  const { client, recent } = await personDetails(services, person);
  return sendPage(
    reply,
    personPage({
      viewer,
      navigation: services.navigation,
      person,
      client,
      recent,
      now: services.now(),
      done,
      ...(shown === undefined ? {} : { shown }),
    }),
  );
}

const PersonParams = Type.Object({ userId: IdParam });
const PersonRoute = { params: PersonParams, querystring: DoneQuery };

async function showPerson(services: ConsoleServices, request: RequestOf<typeof PersonRoute>, reply: FastifyReply): Promise<FastifyReply> {
  const person = await findPerson(services, request.params.userId);
  if (person === undefined) return sendNotFound(services, request, reply);
  return sendPersonPage(services, reply, viewerOf(request), person, request.query.done);
}

const PersonFormRoute = { params: PersonParams, querystring: NoQuery, body: Type.Object(CsrfField) };

/** Another person than the viewer (nobody changes their own account here), or undefined: not found. */
async function otherPerson(services: ConsoleServices, request: RequestOf<typeof PersonFormRoute>): Promise<ConsoleUser | undefined> {
  const person = await findPerson(services, request.params.userId);
  return person === undefined || person.id === viewerOf(request).user.id ? undefined : person;
}

function changePersonHandler(services: ConsoleServices, change: PersonChange) {
  return async function changeOtherPerson(request: RequestOf<typeof PersonFormRoute>, reply: FastifyReply): Promise<FastifyReply> {
    const person = await otherPerson(services, request);
    if (person === undefined) return sendNotFound(services, request, reply);
    await changePerson(services, viewerOf(request), person, change);
    return seeOther(reply, `/console/people/${person.id}?done=${change}`);
  };
}

async function resetPersonPassword(
  services: ConsoleServices,
  request: RequestOf<typeof PersonFormRoute>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const person = await otherPerson(services, request);
  if (person === undefined) return sendNotFound(services, request, reply);
  const viewer = viewerOf(request);
  const { changed, password } = await resetPassword(services, viewer, person);
  return sendPersonPage(services, reply, viewer, changed, undefined, newPasswordShown(password));
}

export const peopleSection: ConsoleSectionRoutes = {
  navigation: { id: 'people', label: 'People', path: '/console/people', operatorsOnly: true },
  routes: async (pages, services) => {
    admitOperatorsOnly(pages, services);
    pages.get('/people', { schema: PeopleRoute }, (request, reply) => showPeople(services, request, reply));
    pages.post('/people', { schema: AddPersonRoute }, (request, reply) => addPerson(services, request, reply));
    pages.get('/people/:userId', { schema: PersonRoute }, (request, reply) => showPerson(services, request, reply));
    for (const change of Object.keys(PERSON_CHANGES) as PersonChange[])
      pages.post(`/people/:userId/${change}`, { schema: PersonFormRoute }, changePersonHandler(services, change));
    pages.post('/people/:userId/reset-password', { schema: PersonFormRoute }, (request, reply) =>
      resetPersonPassword(services, request, reply),
    );
  },
};
