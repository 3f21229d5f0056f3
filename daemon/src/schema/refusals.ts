// What the HTTP guards refused (GET /api/stats, `refusals`): requests naming a host that is not
// this server, changes and WebSockets from other sites' pages, and VNC bridge connections to a
// server that did not speak VNC. Counted since the daemon started.
import { type Static, Type } from '@sinclair/typebox';

const count = (description: string) => Type.Integer({ minimum: 0, description });

export const RefusalKind = Type.Union(
  [Type.Literal('unknown_host'), Type.Literal('cross_site'), Type.Literal('vnc_not_rfb')],
  { description: 'Which guard refused.' },
);
export type RefusalKind = Static<typeof RefusalKind>;

export const RefusalStats = Type.Object(
  {
    unknown_host: count(
      "Requests answered 421: their Host header named none of this server's names (API and " +
        'HTTP port; add a name to ALLOWED_HOSTS).',
    ),
    cross_site: count(
      "Changes, GET setters and WebSocket upgrades refused (403) as coming from another site's " +
        'page (Origin or Sec-Fetch-Site).',
    ),
    vnc_not_rfb: count(
      'VNC bridge connections closed before anything was relayed: the server did not greet ' +
        'with an RFB protocol version in time (not a VNC server), or the browser sent too much ' +
        'before it did.',
    ),
    last: Type.Union(
      [
        Type.Object(
          {
            kind: RefusalKind,
            message: Type.String({ description: 'What was refused and why (as logged).' }),
            at: Type.String({ format: 'date-time' }),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      { description: 'The latest refusal, or null when there has been none.' },
    ),
  },
  {
    title: 'RefusalStats',
    additionalProperties: false,
    description: 'Requests and connections refused for safety since the daemon started.',
  },
);
export type RefusalStats = Static<typeof RefusalStats>;
