import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { addPreset, bandsOf, deletePreset, findPreset } from '../../config/model.js';
import { EqualizerPreset, EqualizerPresetInput } from '../../schema/equalizer-preset.js';
import { collectionRoutes } from '../collection-routes.js';

/** /equalizers: named presets, saved in equalizers.yaml. */
const equalizers: FastifyPluginAsyncTypebox = async (fastify) => {
  collectionRoutes(fastify, {
    tag: 'Equalizers',
    noun: 'Equalizer',
    what: 'equalizer preset',
    byConfigId: false,
    entity: EqualizerPreset,
    input: EqualizerPresetInput,
    list: { summary: 'List equalizer presets', read: (config) => config.equalizers },
    get: { summary: 'Get one equalizer preset', read: findPreset },
    add: {
      summary: 'Add an equalizer preset',
      description: 'Bands left out are 1.0 (flat). A name already taken is a 409.',
      apply: (draft, body) => addPreset(draft, { name: body.name, ...bandsOf(body) }),
    },
    remove: {
      summary: 'Delete an equalizer preset',
      description:
        'Sinks, sources and routes keep their own band values; nothing refers to presets.',
      inUse: false,
      apply: deletePreset,
    },
  });
};

export default equalizers;
