// Add Sink and Edit of a sink: name, address, protocol and output format (channels follow the
// layout), WebRTC listening, plus volume, delay and normalisation when editing. One POST or one
// PUT.
import {
  BIT_DEPTHS,
  CHANNEL_LAYOUTS,
  DEFAULT_SINK_PORT,
  LAYOUT_CHANNELS,
  SINK_PROTOCOLS,
  type Sink,
} from '../../api/schema';
import { Field } from '../../ui/Field';
import {
  EnabledField,
  LevelFields,
  NameField,
  PortField,
  SampleRateField,
} from '../entities/fields';
import {
  EntityDialog,
  nullable,
  nullableNumber,
  numberOrText,
  saveEntry,
  useApiForm,
} from '../entities/form';
import { WebrtcFields, webrtcBody, webrtcValues } from './WebrtcFields';

const PROTOCOL_WORDS: Record<(typeof SINK_PROTOCOLS)[number], string> = {
  scream: 'Scream (UDP)',
  rtp: 'RTP',
  tcp: 'TCP (raw PCM)',
};

export default function SinkDialog({ sink }: { sink?: Sink }) {
  const form = useApiForm({
    name: sink?.name ?? '',
    ip: sink?.ip ?? '',
    port: String(sink?.port ?? DEFAULT_SINK_PORT),
    protocol: sink?.protocol ?? 'scream',
    bit_depth: String(sink?.bit_depth ?? 16),
    sample_rate: String(sink?.sample_rate ?? 48000),
    channel_layout: sink?.channel_layout ?? 'stereo',
    channels: String(sink?.channels ?? 2),
    volume: String(sink?.volume ?? 1),
    delay: String(sink?.delay ?? 0),
    volume_normalization: sink?.volume_normalization ?? false,
    enabled: sink?.enabled ?? true,
    ...webrtcValues(sink),
  });
  const v = form.values;
  const editing = sink !== undefined;

  const body = () => {
    const fields = {
      name: v.name.trim(),
      ip: nullable(v.ip),
      port: nullableNumber(v.port),
      protocol: v.protocol,
      bit_depth: numberOrText(v.bit_depth),
      sample_rate: numberOrText(v.sample_rate),
      channel_layout: v.channel_layout,
      channels: numberOrText(v.channels),
      webrtc: webrtcBody(sink, v),
    };
    if (!editing) return fields;
    return {
      ...fields,
      volume: numberOrText(v.volume),
      delay: numberOrText(v.delay),
      volume_normalization: v.volume_normalization,
      enabled: v.enabled,
    };
  };
  const save = form.submit(() => saveEntry('sink', sink, body()));
  const layout = form.text('channel_layout');

  return (
    <EntityDialog
      title={editing ? `Edit sink ${sink.name}` : 'Add Sink'}
      wide
      form={form}
      onSubmit={save}
      submitLabel={editing ? 'Save' : 'Add sink'}
    >
      <div className="form-grid">
        <NameField form={form} />
        <Field label="IP" hint="Where the audio is sent." errors={form.errors('ip')}>
          <input {...form.text('ip')} inputMode="decimal" autoComplete="off" />
        </Field>
        <PortField form={form} name="port" hint="Scream receivers listen on 4010." />
        <Field label="Protocol" errors={form.errors('protocol')}>
          <select {...form.text('protocol')}>
            {SINK_PROTOCOLS.map((p) => (
              <option key={p} value={p}>
                {PROTOCOL_WORDS[p]}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <fieldset className="form-grid">
        <legend>Output format</legend>
        <Field label="Bit depth" errors={form.errors('bit_depth')}>
          <select {...form.text('bit_depth')}>
            {BIT_DEPTHS.map((b) => (
              <option key={b} value={b}>
                {b}-bit
              </option>
            ))}
          </select>
        </Field>
        <SampleRateField form={form} name="sample_rate" />
        <Field label="Channel layout" errors={form.errors('channel_layout')}>
          <select
            {...layout}
            onChange={(event) => {
              layout.onChange(event);
              const channels = LAYOUT_CHANNELS[event.target.value as keyof typeof LAYOUT_CHANNELS];
              form.set('channels', String(channels));
            }}
          >
            {CHANNEL_LAYOUTS.map((l) => (
              <option key={l} value={l}>
                {l}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Channels" hint="Follows the layout." errors={form.errors('channels')}>
          <input {...form.text('channels')} type="number" min="1" max="8" />
        </Field>
      </fieldset>
      <WebrtcFields
        form={form}
        iceText={v['webrtc.ice_servers']}
        setIceText={(text) => form.set('webrtc.ice_servers', text)}
      />
      {editing && (
        <fieldset className="form-grid">
          <legend>Playback</legend>
          <LevelFields form={form} />
          <label className="checkbox">
            <input {...form.check('volume_normalization')} /> Volume normalisation
          </label>
          <EnabledField form={form} />
        </fieldset>
      )}
    </EntityDialog>
  );
}
