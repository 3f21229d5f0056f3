import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
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
const sources: FastifyPluginAsync<SourceRoutesOptions> = async (fastify, options) => {
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
  for (const command of Object.keys(MEDIA_COMMANDS) as MediaCommand[]) {
    fastify.get<{ Params: { name: string } }>(
      `/:name/${command}`,
      {
        schema: {
          tags: ['Sources'],
          operationId: `${command}Source`,
          summary: commandSummaries[command],
          description:
            `Sends the single character "${MEDIA_COMMANDS[command]}" by UDP to port 9999 of the ` +
            "source's vnc_ip, where a command receiver presses the matching media key.",
          params: nameParams('source'),
          response: {
            200: Type.Literal(true, { description: 'The command was sent.' }),
            ...errors(404, 409, 502),
          },
        },
      },
      async (request) => {
        const source = lookup(fastify.configStore.config, 'source', request.params.name);
        if (!source.vnc_ip) throw new NoMediaHostError(source.name);
        try {
          await sendMediaCommand(source.vnc_ip, port, command);
        } catch (err) {
          throw new MediaCommandError(`${source.vnc_ip}:${port}`, (err as Error).message);
        }
        return true;
      },
    );
  }
};

export default sources;
