/** The console room (issue #15): the site owners' web view at /svc/console/, one plugin entry. */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/app-context.js';
import { consoleRoutes, type ConsoleDeps } from './console-routes.js';

export async function registerConsole(app: FastifyInstance, ctx: AppContext, deps: ConsoleDeps): Promise<void> {
  if (!ctx.config.console.enabled) return;
  await consoleRoutes(app, ctx, deps);
}
