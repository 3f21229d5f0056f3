import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { addPreset, bandsOf, deletePreset, findPreset } from '../../config/model.js';
import { EqualizerPreset, EqualizerPresetInput } from '../../schema/equalizer-preset.js';
import { errors, nameParams, True } from '../shared.js';

const tags = ['Equalizers'];
const params = nameParams('equalizer preset');

/** /equalizers: named presets, saved in equalizers.yaml. */
const equalizers: FastifyPluginAsync = async (fastify) => {
  const store = fastify.configStore;

  fastify.get(
    '/',
    {
      schema: {
        tags,
        operationId: 'listEqualizers',
        summary: 'List equalizer presets',
        response: { 200: Type.Array(Type.Ref(EqualizerPreset)), ...errors() },
      },
    },
    async () => store.config.equalizers,
  );

  fastify.get<{ Params: { name: string } }>(
    '/:name',
    {
      schema: {
        tags,
        operationId: 'getEqualizer',
        summary: 'Get one equalizer preset',
        params,
        response: { 200: Type.Ref(EqualizerPreset), ...errors(404) },
      },
    },
    async (request) => findPreset(store.config, request.params.name),
  );

  fastify.post<{ Body: EqualizerPresetInput }>(
    '/',
    {
      schema: {
        tags,
        operationId: 'addEqualizer',
        summary: 'Add an equalizer preset',
        description: 'Bands left out are 1.0 (flat). A name already taken is a 409.',
        body: Type.Ref(EqualizerPresetInput),
        response: { 201: Type.Ref(EqualizerPreset), ...errors(400, 409, 503) },
      },
    },
    async (request, reply) => {
      const { name } = request.body;
      const created = await store.change((draft) =>
        addPreset(draft, { name, ...bandsOf(request.body as EqualizerPreset) }),
      );
      return reply.code(201).send(created);
    },
  );

  fastify.delete<{ Params: { name: string } }>(
    '/:name',
    {
      schema: {
        tags,
        operationId: 'deleteEqualizer',
        summary: 'Delete an equalizer preset',
        description:
          'Sinks, sources and routes keep their own band values; nothing refers to presets.',
        params,
        response: { 200: True, ...errors(404, 503) },
      },
    },
    async (request) => {
      await store.change((draft) => deletePreset(draft, request.params.name));
      return true;
    },
  );
};

export default equalizers;
