/** The console's help page and the shortcuts script every signed-in page loads (issue #35 item 7). */
import type { FastifyInstance } from 'fastify';
import { CONSOLE_BASE } from './console-pages.js';
import { pageHeaders, serveAsset, type ConsoleKit } from './console-kit.js';
import { CONSOLE_SHORTCUTS_JS } from './console-shortcuts-script.js';
import { renderHelp } from './console-help-pages.js';
import { consoleZone } from './console-time.js';

export async function consoleHelpRoutes(scope: FastifyInstance, kit: ConsoleKit): Promise<void> {
  serveAsset(scope, 'console-shortcuts.js', 'text/javascript', CONSOLE_SHORTCUTS_JS);
  scope.get(`${CONSOLE_BASE}/help`, async (request, reply) => {
    const current = await kit.signedIn(request);
    if (!current) return reply.redirect(`${CONSOLE_BASE}/sign-in`, 303);
    return pageHeaders(reply).send(renderHelp(consoleZone(kit.ctx), current.viewer));
  });
}
