/**
 * The signed-in person's own account: changing their password, with the current one. Every person can; it is not a
 * navigation section but a link beside their name. The failure that locks the account ends its sessions (and this
 * one: to the sign-in page). A change ends the person's other sessions (not this one) and is audited.
 */
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { viewerOf } from '../access.js';
import { sendPage, seeOther, seeOtherSignedOut } from '../replies.js';
import { CsrfField, DoneQuery, FormText, NoQuery, type RequestOf } from '../schemas.js';
import { cookieValue, SESSION_COOKIE } from '../security.js';
import type { ConsoleSectionRoutes } from '../section.js';
import type { ConsoleServices } from '../services.js';
import { changeOwnPassword } from './queries.js';
import { PASSWORD_PAGE_PATH, passwordPage } from './views.js';

const PasswordPageRoute = { querystring: DoneQuery };

async function showPasswordPage(
  services: ConsoleServices,
  request: RequestOf<typeof PasswordPageRoute>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  return sendPage(
    reply,
    passwordPage({ viewer: viewerOf(request), navigation: services.navigation, changed: request.query.done === 'changed' }),
  );
}

const ChangePasswordRoute = {
  querystring: NoQuery,
  body: Type.Object({ ...CsrfField, current: Type.Optional(FormText), next: Type.Optional(FormText), confirm: Type.Optional(FormText) }),
};

async function changePassword(
  services: ConsoleServices,
  request: RequestOf<typeof ChangePasswordRoute>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const viewer = viewerOf(request);
  const { current = '', next = '', confirm = '' } = request.body;
  const again = (problem: string, wrong: 'current' | 'new') =>
    sendPage(reply, passwordPage({ viewer, navigation: services.navigation, problems: [problem], wrong }), 400);
  if (next !== confirm) return again('The new password and its repetition differ.', 'new');
  const change = await changeOwnPassword(services, viewer, cookieValue(request, SESSION_COOKIE), current, next);
  switch (change.outcome) {
    case 'wrong-password':
      return change.nowLocked
        ? seeOtherSignedOut(reply, services.cookies, '/console/sign-in')
        : again('The current password is not right.', 'current');
    case 'locked':
      return seeOtherSignedOut(reply, services.cookies, '/console/sign-in');
    case 'refused':
      return again(`The new password is refused: ${change.problem}.`, 'new');
    case 'changed':
      return seeOther(reply, `${PASSWORD_PAGE_PATH}?done=changed`);
  }
}

export const accountSection: ConsoleSectionRoutes = {
  routes: async (pages, services) => {
    pages.get('/account/password', { schema: PasswordPageRoute }, (request, reply) => showPasswordPage(services, request, reply));
    pages.post('/account/password', { schema: ChangePasswordRoute }, (request, reply) => changePassword(services, request, reply));
  },
};
