import { type Static, Type } from '@sinclair/typebox';
import { IntegerEnum, withDefaults } from './common.js';

/**
 * MPEG-1 Layer III bit rates a sink's MP3 stream may use (kbit/s). 320 is the format's top:
 * there is no 384 kbit/s frame. 56 is left out (the LAME binding does not offer it).
 */
export const MP3_BITRATES = [32, 40, 48, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320] as const;
export const MP3_MAX_LISTENERS_LIMIT = 256;

export const MP3_DEFAULTS = { bitrate: 320, max_listeners: 32 } as const;

const mp3Fields = {
  bitrate: IntegerEnum(MP3_BITRATES, {
    description:
      'Constant bit rate of the stream in kbit/s. 320, the highest MPEG-1 Layer III rate, is ' +
      'the default (384 does not exist in the format).',
    examples: [320],
  }),
  max_listeners: Type.Integer({
    minimum: 1,
    maximum: MP3_MAX_LISTENERS_LIMIT,
    description: 'Listeners of the stream at once; one more is answered 503.',
    examples: [32],
  }),
};

/** A sink's MP3 stream (GET /stream/{ip}/). */
export const Mp3Settings = Type.Object(withDefaults(mp3Fields, MP3_DEFAULTS), {
  additionalProperties: false,
  description:
    'The MP3 stream of this sink at /stream/{ip}/ (real sinks with an ip). Replaced as a ' +
    'whole; fields left out take their defaults.',
});
export type Mp3Settings = Static<typeof Mp3Settings>;
