// Which methods a URL answers to, for 405 Method Not Allowed with an Allow header: every route
// is recorded as it is added (the router only answers "no route for this method").

/** A route's URL pattern (`/sinks/:name/volume/:volume`) as a regular expression. */
function patternOf(url: string): RegExp {
  const parts = url
    .replace(/\/+$/, '')
    .split('/')
    .map((part) =>
      part.startsWith(':') || part === '*' ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    );
  return new RegExp(`^${parts.join('/')}/?$`);
}

export class AllowedMethods {
  readonly #routes: { pattern: RegExp; methods: Set<string> }[] = [];

  /** Records a route (Fastify's onRoute hook). */
  add(method: string | string[], url: string): void {
    // A catch-all (the dashboard's `/*`) does not make every URL a known one.
    if (url.includes('*')) return;
    const pattern = patternOf(url);
    let route = this.#routes.find((r) => r.pattern.source === pattern.source);
    if (!route) {
      route = { pattern, methods: new Set() };
      this.#routes.push(route);
    }
    for (const m of Array.isArray(method) ? method : [method]) route.methods.add(m.toUpperCase());
  }

  /** The methods some route answers `path` with (sorted), empty when none does. */
  for(path: string): string[] {
    const methods = new Set<string>();
    for (const route of this.#routes) {
      if (route.pattern.test(path)) for (const m of route.methods) methods.add(m);
    }
    return [...methods].sort();
  }
}
