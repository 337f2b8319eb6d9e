/**
 * Which methods a path answers to, so a known path asked with the wrong method gets 405
 * METHOD_NOT_ALLOWED with an `Allow` header instead of 404 (issue #11). Routes are collected as
 * they are registered (fastify's onRoute hook, which sees routes of every plugin scope).
 */
import type { FastifyInstance } from 'fastify';

interface RoutePattern {
  readonly pattern: RegExp;
  readonly methods: Set<string>;
}

function patternOf(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment === '*' ? '.*' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}

export interface RouteMethods {
  /** The methods registered for the path of `url` (its query ignored), in a stable order; [] when none. */
  allowed(url: string): string[];
}

export function collectRouteMethods(app: FastifyInstance): RouteMethods {
  const routes = new Map<string, RoutePattern>();
  app.addHook('onRoute', (route) => {
    // A catch-all (the classic post's `/svc/*`) names no path of its own: it must not make every
    // unknown path "allow POST".
    if (route.url.includes('*')) return;
    const entry = routes.get(route.url) ?? { pattern: patternOf(route.url), methods: new Set<string>() };
    for (const method of [route.method].flat()) entry.methods.add(method);
    routes.set(route.url, entry);
  });
  return {
    allowed(url) {
      const path = url.split('?')[0] ?? url;
      const methods = new Set<string>();
      for (const route of routes.values()) {
        if (route.pattern.test(path)) for (const method of route.methods) methods.add(method);
      }
      return [...methods].sort();
    },
  };
}
