/**
 * A plugin that shapes the whole app rather than a scope of its own: its hooks, handlers, parsers and decorations
 * apply to the instance it is registered on (the root), and so to every plugin registered after it. Fastify's own
 * way to say so without the `fastify-plugin` package is the `skip-override` mark (Fastify docs, Reference/Plugins).
 */
import type { FastifyPluginAsync, FastifyPluginOptions, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';

/** A plugin of our app (its routes get request types from their TypeBox schemas). */
export type AppPlugin<Options extends FastifyPluginOptions = Record<never, never>> = FastifyPluginAsync<
  Options,
  RawServerDefault,
  TypeBoxTypeProvider
>;

export function rootPlugin<Options extends FastifyPluginOptions>(name: string, plugin: AppPlugin<Options>): AppPlugin<Options> {
  return Object.assign(plugin, { [Symbol.for('skip-override')]: true, [Symbol.for('fastify.display-name')]: name });
}
