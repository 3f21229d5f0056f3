// What Tributary has built: the one list the docs, the site and the dashboard are checked against
// (site/test/built-features.test.ts), so no page, card or dashboard string calls a working feature
// "planned" or "not built yet". A feature that gets built is added here in the change that builds
// it; its stale mentions then fail the test until they are mended.

export interface BuiltFeature {
  /** What it is, for the test's messages. */
  readonly name: string;
  /** Words that name it in prose (case-insensitive), specific enough to mean only this. */
  readonly terms: RegExp;
}

export const builtFeatures: readonly BuiltFeature[] = [
  { name: 'mDNS autoconfiguration', terms: /\bmDNS\b|autoconfiguration/i },
  { name: 'SAP discovery and announcement', terms: /\bSAP\b/ },
  { name: 'MP3 streams over HTTP', terms: /\bMP3\b/i },
  { name: 'WebRTC listening (Listen in Browser)', terms: /\bWebRTC\b|\bWHEP\b|Listen in Browser/i },
  { name: 'the web dashboard', terms: /\b(web )?dashboard\b/i },
  { name: 'the VNC viewer', terms: /\bVNC viewer\b/i },
  { name: 'media controls', terms: /\bmedia (controls|commands)\b/i },
  { name: 'the 18-band equalizer', terms: /\bequali[sz]er\b/i },
  { name: 'tributary render', terms: /\btributary render\b/i },
  { name: 'tributary receive (PulseAudio/PipeWire, ALSA, JACK)', terms: /\btributary receive\b/i },
  {
    name: 'ALSA and JACK output (tributary receive -o alsa|jack)',
    terms: /\b(ALSA|JACK) (output|playback)\b/i,
  },
  {
    name: 'the receiver found over mDNS (tributary receive advertises itself)',
    terms: /\breceiver\b[^.]*\b(advertis|announc)/i,
  },
  { name: 'tributary send (PulseAudio/PipeWire, ALSA, JACK)', terms: /\btributary send\b/i },
  {
    name: 'ALSA and JACK capture (tributary send -i alsa|jack)',
    terms: /\b(ALSA|JACK) capture\b/i,
  },
  {
    name: 'the user units of tributary receive and send (--install-unit)',
    terms: /--install-unit\b|\buser units?\b/i,
  },
  { name: 'the play-URL plugins', terms: /\bplayurl(multiple)?\b|\bplay (a )?URLs?\b/i },
  { name: 'the test tone plugin', terms: /\btone plugin\b/i },
];

/** Words that say something does not exist yet. */
export const notBuiltWords =
  /\bplanned\b|\bnot built\b|\bnot yet built\b|\bnot implemented yet\b|\bcoming soon\b|\bdoes not exist yet\b/i;

/**
 * Sentences that use those words of something else, each with why: a unit holding one is not a
 * claim.
 */
export const notClaims: readonly { readonly text: string; readonly why: string }[] = [
  {
    text: '*The dashboard is not built*',
    why: "the daemon's page when a checkout's dashboard files were not built (npm run build)",
  },
];
