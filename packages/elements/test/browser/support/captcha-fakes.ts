/**
 * A stand-in captcha provider for browser tests: a verify endpoint on loopback (as
 * packages/server/test/captcha.test.ts uses) and a tiny Turnstile script with the explicit-render
 * API, served by the page server, whose widget is one button that hands out the token 'tok-ok'.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const GOOD_TOKEN = 'tok-ok';

export interface VerifyServer {
  readonly url: string;
  /** The `response` tokens it was asked to verify, in order. */
  readonly tokens: string[];
  close(): Promise<void>;
}

/** Answers `success: true` only for GOOD_TOKEN. */
export async function startVerifyServer(): Promise<VerifyServer> {
  const tokens: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      const token = new URLSearchParams(body).get('response') ?? '';
      tokens.push(token);
      const answer = token === GOOD_TOKEN ? { success: true } : { success: false, 'error-codes': ['invalid-input-response'] };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/siteverify`,
    tokens,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `window.turnstile`: render() draws a button calling back with GOOD_TOKEN; calls are counted. */
export const FAKE_TURNSTILE_SCRIPT = `(() => {
  const calls = { render: [], reset: [] };
  window.__fakeTurnstile = calls;
  window.turnstile = {
    render(element, options) {
      const id = 'widget-' + (calls.render.length + 1);
      calls.render.push({ sitekey: options.sitekey, inShadow: element.getRootNode() !== document });
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'fake-turnstile';
      button.textContent = 'I am human';
      button.addEventListener('click', () => {
        button.textContent = 'Verified';
        options.callback(${JSON.stringify(GOOD_TOKEN)});
      });
      element.append(button);
      return id;
    },
    reset(id) {
      calls.reset.push(id);
      for (const button of document.querySelectorAll('.fake-turnstile')) button.textContent = 'I am human';
    },
  };
})();
`;
