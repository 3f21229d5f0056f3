// Add Source (Scream Source or RTP Source) and Edit of a source: the fields the RTP source docs
// list, plus volume, delay and the VNC host when editing. One POST or one PUT.
import { RTP_DEFAULTS, RTP_FORMATS, type Source } from '../../api/schema';
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

interface Props {
  /** Add: a Scream or an RTP source. */
  readonly rtp?: boolean;
  /** Edit: the source as it is. */
  readonly source?: Source;
}

function initialValues(source: Source | undefined, rtp: boolean) {
  const r = source?.rtp ?? RTP_DEFAULTS;
  return {
    name: source?.name ?? '',
    ip: source?.ip ?? '',
    tag: source?.tag ?? '',
    enabled: source?.enabled ?? true,
    volume: String(source?.volume ?? 1),
    delay: String(source?.delay ?? 0),
    vnc_ip: source?.vnc_ip ?? '',
    vnc_port: String(source?.vnc_port ?? ''),
    rtp: source ? source.rtp !== null : rtp,
    'rtp.listen_ip': r.listen_ip ?? '',
    'rtp.port': String(r.port),
    'rtp.format': r.format,
    'rtp.sample_rate': String(r.sample_rate),
    'rtp.channels': String(r.channels),
    'rtp.payload_type': r.payload_type === null ? '' : String(r.payload_type),
    'rtp.time_sync': r.time_sync,
    'rtp.sap': r.sap,
  };
}

export default function SourceDialog({ rtp = false, source }: Props) {
  const form = useApiForm(initialValues(source, rtp));
  const v = form.values;
  const editing = source !== undefined;

  const body = () => {
    const rtpBlock = v.rtp
      ? {
          listen_ip: nullable(v['rtp.listen_ip']),
          port: numberOrText(v['rtp.port']),
          format: v['rtp.format'],
          sample_rate: numberOrText(v['rtp.sample_rate']),
          channels: numberOrText(v['rtp.channels']),
          payload_type: nullableNumber(v['rtp.payload_type']),
          time_sync: v['rtp.time_sync'],
          sap: v['rtp.sap'],
        }
      : null;
    const common = { name: v.name.trim(), ip: nullable(v.ip), tag: nullable(v.tag), rtp: rtpBlock };
    if (!editing) return common;
    return {
      ...common,
      enabled: v.enabled,
      volume: numberOrText(v.volume),
      delay: numberOrText(v.delay),
      vnc_ip: nullable(v.vnc_ip),
      vnc_port: nullableNumber(v.vnc_port),
    };
  };

  const save = form.submit(() => saveEntry('source', source, body()));

  const title = editing
    ? `Edit source ${source.name}`
    : v.rtp
      ? 'Add RTP Source'
      : 'Add Scream Source';
  return (
    <EntityDialog
      title={title}
      wide={Boolean(v.rtp)}
      form={form}
      onSubmit={save}
      submitLabel={editing ? 'Save' : 'Add source'}
    >
      <div className="form-grid">
        <NameField form={form} />
        <Field
          label="Sender IP"
          hint="The address the audio comes from; empty matches by tag alone."
          errors={form.errors('ip')}
        >
          <input {...form.text('ip')} inputMode="decimal" autoComplete="off" />
        </Field>
        <Field
          label="Tag"
          hint="For per-application streams (ip/program); usually empty."
          errors={form.errors('tag')}
        >
          <input {...form.text('tag')} autoComplete="off" />
        </Field>
      </div>
      {editing && (
        <fieldset className="form-grid">
          <legend>Playback</legend>
          <LevelFields form={form} />
          <EnabledField form={form} />
          <Field
            label="VNC host"
            hint="Receives media keys and offers VNC."
            errors={form.errors('vnc_ip')}
          >
            <input {...form.text('vnc_ip')} autoComplete="off" />
          </Field>
          <PortField form={form} name="vnc_port" label="VNC port" />
        </fieldset>
      )}
      {editing && (
        <label className="checkbox">
          <input {...form.check('rtp')} /> Receives RTP (not Scream)
        </label>
      )}
      {v.rtp && <RtpFields form={form} />}
    </EntityDialog>
  );
}

function RtpFields({
  form,
}: {
  form: ReturnType<typeof useApiForm<ReturnType<typeof initialValues>>>;
}) {
  return (
    <fieldset className="form-grid">
      <legend>RTP</legend>
      <Field
        label="Listen IP"
        hint="A multicast group to join; empty listens on the server's address."
        errors={form.errors('rtp.listen_ip')}
      >
        <input {...form.text('rtp.listen_ip')} autoComplete="off" />
      </Field>
      <PortField form={form} name="rtp.port" hint="RTCP arrives on this port + 1." />
      <Field label="Format" errors={form.errors('rtp.format')}>
        <select {...form.text('rtp.format')}>
          {RTP_FORMATS.map((f) => (
            <option key={f} value={f}>
              {f}
              {f === 'S16BE' ? ' (recommended)' : ''}
            </option>
          ))}
        </select>
      </Field>
      <SampleRateField form={form} name="rtp.sample_rate" />
      <Field label="Channels" errors={form.errors('rtp.channels')}>
        <input {...form.text('rtp.channels')} type="number" min="1" max="8" />
      </Field>
      <Field
        label="Payload type"
        hint="Empty accepts any."
        errors={form.errors('rtp.payload_type')}
      >
        <input {...form.text('rtp.payload_type')} type="number" min="0" max="127" />
      </Field>
      <label className="checkbox">
        <input {...form.check('rtp.time_sync')} /> Time Sync (RTCP) <small>not built yet</small>
      </label>
      <label className="checkbox">
        <input {...form.check('rtp.sap')} /> SAP discovery
      </label>
    </fieldset>
  );
}
