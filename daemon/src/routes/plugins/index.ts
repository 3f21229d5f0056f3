// /api/plugins/playurl/settings: the play-URL plugins' limits (config.yaml's plugins.playurl),
// read and changed through the API. Saved to config.yaml like every change (a restart keeps
// them, a hand edit still works); read by the plugins at each play request.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { PlayUrlSettings, PlayUrlSettingsPatch } from '../../schema/plugin-settings.js';
import { errors } from '../shared.js';

const tags = ['Plugins'];

const pluginSettingsRoutes: FastifyPluginAsync = async (plain) => {
  // The body typed from its schema (no declared type to drift).
  const fastify = plain.withTypeProvider<TypeBoxTypeProvider>();
  const store = fastify.configStore;

  fastify.get(
    '/api/plugins/playurl/settings',
    {
      schema: {
        tags,
        operationId: 'getPlayUrlSettings',
        summary: 'The play-URL limits (plugins.playurl in config.yaml)',
        description:
          'Every field, defaults filled in. Also part of GET /api/config (config.plugins.playurl).',
        response: { 200: Type.Ref(PlayUrlSettings), ...errors() },
      },
    },
    async () => store.config.plugins.playurl,
  );

  fastify.put(
    '/api/plugins/playurl/settings',
    {
      schema: {
        tags,
        operationId: 'updatePlayUrlSettings',
        summary: 'Change the play-URL limits',
        description:
          'A partial update: fields left out keep their value; a value out of its range is ' +
          'refused with 400 naming the field and the rule, and nothing is saved. Saved to ' +
          'config.yaml; the next play request gets the new limits (a playback already playing ' +
          'keeps those it started with). Answers every field as saved.',
        body: Type.Ref(PlayUrlSettingsPatch),
        response: { 200: Type.Ref(PlayUrlSettings), ...errors(400, 503) },
      },
    },
    async (request) =>
      store.change((draft) => {
        draft.plugins.playurl = { ...draft.plugins.playurl, ...request.body };
        return draft.plugins.playurl;
      }),
  );
};

export default pluginSettingsRoutes;
