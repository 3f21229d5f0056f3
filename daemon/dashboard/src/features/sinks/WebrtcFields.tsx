// The sink dialog's WebRTC listening fields (a sink's `webrtc` block): whether browsers may
// listen, the Opus profile, how many at once, the idle timeout and the ICE servers given to
// them. Bounds and choices come from the API's schema constants; the API checks the values and
// its problems (`webrtc.max_listeners`, `webrtc.ice_servers[1].urls`) show under each field.
import {
  type Sink,
  WEBRTC_DEFAULTS,
  WEBRTC_MAX_ICE_SERVERS,
  WEBRTC_MAX_LISTENERS_LIMIT,
  WEBRTC_PROFILE_KBPS,
  WEBRTC_PROFILES,
  WEBRTC_SESSION_TIMEOUT_MAX_S,
  WEBRTC_SESSION_TIMEOUT_MIN_S,
} from '../../api/schema';
import { formatIceServers, parseIceServers } from '../../lib/ice-servers';
import { Field } from '../../ui/Field';
import type { FieldForm } from '../entities/fields';
import { numberOrText } from '../entities/form';

const PROFILE_WORDS: Record<(typeof WEBRTC_PROFILES)[number], string> = {
  low_latency: 'Low latency',
  balanced: 'Balanced',
  high_quality: 'High quality',
};

/** The form values of a sink's `webrtc` block (its own or the defaults). */
export function webrtcValues(sink: Sink | undefined) {
  const w = sink?.webrtc ?? WEBRTC_DEFAULTS;
  return {
    'webrtc.enabled': w.enabled,
    'webrtc.profile': w.profile as string,
    'webrtc.max_listeners': String(w.max_listeners),
    'webrtc.session_timeout': String(w.session_timeout),
    'webrtc.ice_servers': formatIceServers(w.ice_servers),
  };
}

type WebrtcValues = ReturnType<typeof webrtcValues>;

/** The `webrtc` block to send: the sink's own with the fields the dialog edits replaced (so an
 * untouched block compares equal and is not sent). */
export function webrtcBody(sink: Sink | undefined, v: WebrtcValues) {
  const before = sink?.webrtc;
  const iceText = v['webrtc.ice_servers'];
  return {
    ...before,
    enabled: v['webrtc.enabled'],
    profile: v['webrtc.profile'],
    max_listeners: numberOrText(v['webrtc.max_listeners']),
    session_timeout: numberOrText(v['webrtc.session_timeout']),
    ice_servers:
      before && iceText === formatIceServers(before.ice_servers)
        ? before.ice_servers
        : parseIceServers(iceText),
  };
}

export function WebrtcFields({
  form,
  iceText,
  setIceText,
}: {
  form: FieldForm;
  iceText: string;
  setIceText: (text: string) => void;
}) {
  return (
    <fieldset className="form-grid">
      <legend>Listen in Browser (WebRTC)</legend>
      <label className="checkbox">
        <input {...form.check('webrtc.enabled')} /> Browsers may listen
      </label>
      <Field
        label="Profile"
        hint="Opus bit rate; encoded once, whatever the listeners."
        errors={form.errors('webrtc.profile')}
      >
        <select {...form.text('webrtc.profile')}>
          {WEBRTC_PROFILES.map((p) => (
            <option key={p} value={p}>
              {PROFILE_WORDS[p]} ({WEBRTC_PROFILE_KBPS[p]} kbit/s)
            </option>
          ))}
        </select>
      </Field>
      <Field label="Max listeners" errors={form.errors('webrtc.max_listeners')}>
        <input
          {...form.text('webrtc.max_listeners')}
          type="number"
          min="1"
          max={WEBRTC_MAX_LISTENERS_LIMIT}
        />
      </Field>
      <Field
        label="Session timeout (s)"
        hint="A silent listener is dropped after this."
        errors={form.errors('webrtc.session_timeout')}
      >
        <input
          {...form.text('webrtc.session_timeout')}
          type="number"
          min={WEBRTC_SESSION_TIMEOUT_MIN_S}
          max={WEBRTC_SESSION_TIMEOUT_MAX_S}
        />
      </Field>
      <Field
        label="ICE servers"
        hint={`For listeners behind NAT: one a line, URL [username [credential]], at most ${WEBRTC_MAX_ICE_SERVERS}.`}
        errors={form.errors('webrtc.ice_servers')}
      >
        <textarea
          name="webrtc.ice_servers"
          rows={2}
          value={iceText}
          onChange={(event) => setIceText(event.target.value)}
          placeholder="stun:stun.example.org:3478"
          spellCheck={false}
          autoComplete="off"
        />
      </Field>
    </fieldset>
  );
}
