// The built-in configuration used when config.yaml or equalizers.yaml does not exist yet.
import { EQ_BAND_KEYS, type EqBandKey, FLAT_EQUALIZER } from '../schema/common.js';
import type { EqualizerPreset } from '../schema/equalizer-preset.js';
import type { ConfigPart, EqualizersPart } from './documents.js';
import { settingsDefaults } from './model.js';

function preset(name: string, gains: Partial<Record<EqBandKey, number>>): EqualizerPreset {
  const bands = { ...FLAT_EQUALIZER };
  for (const key of EQ_BAND_KEYS) bands[key] = gains[key] ?? 1;
  return { name, ...bands };
}

/** No sinks, sources or routes: the daemon starts empty and is configured through the API. */
export function defaultConfig(): ConfigPart {
  return { sinks: [], sources: [], routes: [], favorites: [], ...settingsDefaults() };
}

/** A few presets to start from (gains are linear: 1.0 flat). */
export function defaultEqualizers(): EqualizersPart {
  return {
    equalizers: [
      preset('Flat', {}),
      preset('Bass Boost', { b1: 1.6, b2: 1.5, b3: 1.4, b4: 1.25, b5: 1.1 }),
      preset('Treble Boost', { b13: 1.1, b14: 1.25, b15: 1.4, b16: 1.5, b17: 1.6, b18: 1.6 }),
      preset('Vocal', {
        b1: 0.8,
        b2: 0.85,
        b3: 0.9,
        b8: 1.15,
        b9: 1.25,
        b10: 1.3,
        b11: 1.25,
        b12: 1.15,
        b17: 0.9,
        b18: 0.85,
      }),
      preset('Loudness', {
        b1: 1.5,
        b2: 1.4,
        b3: 1.25,
        b4: 1.1,
        b15: 1.1,
        b16: 1.25,
        b17: 1.35,
        b18: 1.4,
      }),
    ],
  };
}
