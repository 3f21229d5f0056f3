// The equalizer of a source, sink or route: 18 vertical sliders (0.0-2.0, 1.0 flat), heard while
// dragging; presets from /equalizers (apply, save as, delete); reset to flat; revert to what it
// was when the dialog opened. For a route, the effective equalizer of each path it makes
// (source x groups x route x groups x sink) is shown read-only.
import { Slider } from 'radix-ui';
import { useEffect, useMemo, useRef, useState } from 'react';
import { api, errorMessage, type Kind } from '../../api/client';
import { useLive } from '../../api/hooks';
import {
  EQ_BAND_FREQUENCIES_HZ,
  EQ_BAND_KEYS,
  EQ_GAIN_MAX,
  EQ_GAIN_MIN,
  type Equalizer,
  FLAT_EQUALIZER,
} from '../../api/schema';
import { formatHz, gainDb } from '../../lib/frequency';
import { throttle } from '../../lib/throttle';
import { Dialog } from '../../ui/Dialog';
import { closeDialog } from '../dialogs';
import { Gone } from '../entities/EditDialog';
import { useEntity } from '../entities/use-entity';
import { EffectiveEqualizer } from './EffectiveEqualizer';
import { PresetBar } from './PresetBar';
import { ResponseCurve } from './ResponseCurve';

export default function EqualizerDialog({ kind, name }: { kind: Kind; name: string }) {
  const entity = useEntity(kind, name);
  const opened = useRef<Equalizer | null>(null);
  if (entity && opened.current === null) opened.current = { ...entity.equalizer };
  const [bands, setBands] = useState<Equalizer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const send = useMemo(
    () =>
      throttle((next: Equalizer) => {
        api
          .setEqualizer(kind, name, next)
          .then(() => setError(null))
          .catch((failure) => setError(errorMessage(failure)));
      }, 120),
    [kind, name],
  );
  useEffect(() => () => send.cancel(), [send]);
  const paths = useLive((s) =>
    kind === 'route' && entity ? s.activity.routes.get(entity.config_id)?.paths : undefined,
  );
  if (!entity) return <Gone kind={kind} name={name} />;

  const shown = bands ?? entity.equalizer;
  const apply = (next: Equalizer, final = true) => {
    setBands(next);
    if (final) send.flush(next);
    else send(next);
  };

  return (
    <Dialog
      title={`Equalizer of ${name}`}
      description="18 bands from 65 Hz to 20 kHz; 1.0 is flat, 2.0 is +6 dB. Heard as you drag."
      onClose={closeDialog}
      wide
    >
      <PresetBar bands={shown} onApply={(preset) => apply(preset)} />
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <ResponseCurve
        bands={shown}
        sampleRate={kind === 'sink' && 'sample_rate' in entity ? entity.sample_rate : 48000}
      />
      <fieldset className="eq-bands">
        <legend className="visually-hidden">Bands</legend>
        {EQ_BAND_KEYS.map((key, i) => {
          const hz = formatHz(EQ_BAND_FREQUENCIES_HZ[i]!);
          const gain = shown[key];
          return (
            <div className="eq-band" key={key}>
              <output className="eq-value" aria-hidden="true" title={gainDb(gain)}>
                {gain.toFixed(2)}
              </output>
              <Slider.Root
                className="slider slider-vertical"
                orientation="vertical"
                min={EQ_GAIN_MIN}
                max={EQ_GAIN_MAX}
                step={0.01}
                value={[gain]}
                onValueChange={([g]) => apply({ ...shown, [key]: g ?? 1 }, false)}
                onValueCommit={([g]) => apply({ ...shown, [key]: g ?? 1 })}
              >
                <Slider.Track className="slider-track">
                  <Slider.Range className="slider-range" />
                </Slider.Track>
                <Slider.Thumb
                  className="slider-thumb"
                  aria-label={`${hz} band`}
                  aria-valuetext={`${gain.toFixed(2)} (${gainDb(gain)})`}
                />
              </Slider.Root>
              <span className="eq-label" aria-hidden="true">
                {hz}
              </span>
            </div>
          );
        })}
      </fieldset>
      {paths !== undefined && <EffectiveEqualizer paths={paths} />}
      <div className="form-actions">
        <button
          type="button"
          className="button button-secondary"
          onClick={() => apply({ ...FLAT_EQUALIZER })}
        >
          Reset to flat
        </button>
        <button
          type="button"
          className="button button-secondary"
          onClick={() => opened.current && apply({ ...opened.current })}
        >
          Revert
        </button>
        <button type="button" className="button" onClick={closeDialog}>
          Done
        </button>
      </div>
    </Dialog>
  );
}
