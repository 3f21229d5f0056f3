// Presets from /equalizers (equalizers.yaml): apply one, save the current bands as a new one,
// delete one (after a second click). Every open dashboard sees the list change.
import { type FormEvent, useState } from 'react';
import { api, errorMessage } from '../../api/client';
import { useLive } from '../../api/hooks';
import { EQ_BAND_KEYS, type Equalizer, type EqualizerPreset } from '../../api/schema';
import { Field } from '../../ui/Field';
import { toast } from '../../ui/toasts';

function bandsOf(preset: EqualizerPreset): Equalizer {
  return Object.fromEntries(EQ_BAND_KEYS.map((k) => [k, preset[k]])) as Equalizer;
}

export function PresetBar({
  bands,
  onApply,
}: {
  bands: Equalizer;
  onApply: (bands: Equalizer) => void;
}) {
  const presets = useLive((s) => s.config?.equalizers ?? []);
  const [selected, setSelected] = useState('');
  const [saveName, setSaveName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const preset = presets.find((p) => p.name === selected) ?? presets[0];

  const saveAs = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      const saved = await api.addPreset({ name: saveName.trim(), ...bands });
      toast({ title: `Saved preset ${saved.name}` });
      setSelected(saved.name);
      setSaveName('');
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  const remove = async () => {
    if (!preset) return;
    if (!confirming) {
      setConfirming(true);
      return;
    }
    setConfirming(false);
    try {
      await api.removePreset(preset.name);
      toast({ title: `Deleted preset ${preset.name}` });
      setSelected('');
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };

  return (
    <div className="presets">
      <div className="preset-pick">
        <Field label="Preset">
          <select
            value={preset?.name ?? ''}
            onChange={(event) => {
              setSelected(event.target.value);
              setConfirming(false);
            }}
          >
            {presets.map((p) => (
              <option key={p.name} value={p.name}>
                {p.name}
              </option>
            ))}
          </select>
        </Field>
        <button
          type="button"
          className="button button-secondary"
          disabled={!preset}
          onClick={() => preset && onApply(bandsOf(preset))}
        >
          Apply preset
        </button>
        <button
          type="button"
          className="button button-secondary"
          disabled={!preset}
          onClick={remove}
        >
          {confirming && preset ? `Confirm: delete ${preset.name}` : 'Delete preset'}
        </button>
      </div>
      <form className="preset-save" onSubmit={saveAs} noValidate>
        <Field label="Save current bands as" errors={error ? [error] : undefined}>
          <input
            value={saveName}
            onChange={(event) => setSaveName(event.target.value)}
            autoComplete="off"
          />
        </Field>
        <button type="submit" className="button button-secondary">
          Save preset
        </button>
      </form>
    </div>
  );
}
