import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { lookup } from '../../config/model.js';
import { MediaCommandError, NoMediaHostError } from '../../errors.js';
import { Source, SourceInput, SourcePatch } from '../../schema/source.js';
import { entityRoutes } from '../entity-routes.js';
import { errors, nameParams } from '../shared.js';
import {
  MEDIA_COMMAND_PORT,
  MEDIA_COMMANDS,
  type MediaCommand,
  sendMediaCommand,
} from './media-commands.js';

export interface SourceRoutesOptions {
  /** UDP port media commands are sent to (9999; tests choose their own). */
  readonly mediaCommandPort?: number;
}

const commandSummaries: Record<MediaCommand, string> = {
  play: 'Play or pause on the source',
  nexttrack: 'Next track on the source',
  prevtrack: 'Previous track on the source',
};

/** /sources: where audio comes from, plus media control of the sending computer. */
const sources: FastifyPluginAsyncTypebox<SourceRoutesOptions> = async (fastify, options) => {
  await fastify.register(
    entityRoutes({
      kind: 'source',
      tag: 'Sources',
      noun: 'Source',
      entity: Source,
      input: SourceInput,
      patch: SourcePatch,
      renameNote: 'rewrites the source groups and routes that name it',
    }),
  );
  const port = options.mediaCommandPort ?? MEDIA_COMMAND_PORT;
  // GET as the specification has it (refused from another site's page), and POST.
  for (const command of Object.keys(MEDIA_COMMANDS) as MediaCommand[]) {
    for (const method of ['GET', 'POST'] as const) {
      fastify.route({
        method,
        url: `/:name/${command}`,
        schema: {
          tags: ['Sources'],
          operationId: `${command}Source${method === 'POST' ? 'Post' : ''}`,
          summary: commandSummaries[command],
          description:
            `Sends the single character "${MEDIA_COMMANDS[command]}" by UDP to port 9999 of the ` +
            "source's vnc_ip, where a command receiver presses the matching media key. " +
            (method === 'GET'
              ? 'Unsafe across sites (any web page could make a browser send it): refused (403) ' +
                'when the request says it comes from another site. Prefer POST on the same URL.'
              : 'The same as the GET on this URL, for scripts. No body. Like every change, ' +
                "refused (403) when it comes from another site's page."),
          params: nameParams('source'),
          response: {
            200: Type.Literal(true, { description: 'The command was sent.' }),
            ...errors(400, ...(method === 'GET' ? [403 as const] : []), 404, 409, 502),
          },
        },
        ...(method === 'GET' ? { config: { changes: 'POST' as const } } : {}),
        handler: async (request) => {
          const source = lookup(fastify.configStore.config, 'source', request.params.name);
          if (!source.vnc_ip) throw new NoMediaHostError(source.name);
          try {
            await sendMediaCommand(source.vnc_ip, port, command);
          } catch (err) {
            throw new MediaCommandError(`${source.vnc_ip}:${port}`, (err as Error).message);
          }
          return true as const;
        },
      });
    }
  }
};

export default sources;
