import { type Static, Type } from '@sinclair/typebox';
import { Equalizer, EqualizerInput, FLAT_EQUALIZER, named, nameRules } from './common.js';

const presetName = Type.String({
  ...nameRules,
  description: 'Unique name of the preset.',
  examples: ['Bass Boost'],
});

/** A named equalizer preset from equalizers.yaml: a name and the 18 band gains. */
export const EqualizerPreset = Type.Object(
  { name: presetName, ...Equalizer.properties },
  named('EqualizerPreset', {
    description: 'A named equalizer preset (saved in equalizers.yaml): a name and 18 band gains.',
    examples: [{ name: 'Flat', ...FLAT_EQUALIZER }],
  }),
);
export type EqualizerPreset = Static<typeof EqualizerPreset>;

export const EqualizerPresetInput = Type.Object(
  { name: presetName, ...EqualizerInput.properties },
  named('EqualizerPresetInput', {
    description: 'A preset to add: a name and any bands; bands left out are 1.0 (flat).',
    examples: [{ name: 'Bass Boost', b1: 1.6, b2: 1.5, b3: 1.3, b4: 1.1 }],
  }),
);
export type EqualizerPresetInput = Static<typeof EqualizerPresetInput>;
