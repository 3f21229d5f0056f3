// A volume slider on the perceptual scale (lib/volume.ts) that shows its position as a percentage
// (the level in dB and the saved value in its title and accessible value). It is
// heard while dragging (changes sent at most every 150 ms) and the last position is always sent.
import { Slider } from 'radix-ui';
import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from 'react';
import { throttle } from '../lib/throttle';
import {
  formatVolume,
  gainToPosition,
  positionToGain,
  stepGain,
  volumeDetail,
} from '../lib/volume';

interface Props {
  /** Accessible name: "Volume of Kitchen". */
  readonly label: string;
  readonly value: number;
  readonly onChange: (gain: number) => Promise<unknown>;
  readonly compact?: boolean;
}

export function VolumeSlider({ label, value, onChange, compact = false }: Props) {
  // The value being set, shown until the server's answer arrives through /ws/config.
  const [local, setLocal] = useState<number | null>(null);
  const dragging = useRef(false);
  const save = useRef(onChange);
  save.current = onChange;
  const send = useMemo(
    () =>
      throttle((gain: number) => {
        save.current(gain).catch(() => setLocal(null));
      }, 150),
    [],
  );
  useEffect(() => () => send.cancel(), [send]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new value from the server ends the local one
  useEffect(() => {
    if (!dragging.current) setLocal(null);
  }, [value]);

  const shown = local ?? value;
  const set = (gain: number, final: boolean) => {
    setLocal(gain);
    if (final) send.flush(gain);
    else send(gain);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const direction =
      event.key === 'ArrowUp' || event.key === 'ArrowRight'
        ? 1
        : event.key === 'ArrowDown' || event.key === 'ArrowLeft'
          ? -1
          : 0;
    if (direction === 0) return;
    event.preventDefault();
    event.stopPropagation();
    set(stepGain(shown, direction), true);
  };

  return (
    <div className={compact ? 'volume volume-compact' : 'volume'}>
      <Slider.Root
        className="slider"
        min={0}
        max={1}
        step={0.001}
        value={[gainToPosition(shown)]}
        onValueChange={([position]) => {
          dragging.current = true;
          set(positionToGain(position ?? 0), false);
        }}
        onValueCommit={([position]) => {
          dragging.current = false;
          set(positionToGain(position ?? 0), true);
        }}
        onKeyDown={onKeyDown}
      >
        <Slider.Track className="slider-track">
          <Slider.Range className="slider-range" />
        </Slider.Track>
        <Slider.Thumb
          className="slider-thumb"
          aria-label={label}
          aria-valuetext={`${formatVolume(shown)}, ${volumeDetail(shown)}`}
        />
      </Slider.Root>
      <output className="volume-value" aria-hidden="true" title={volumeDetail(shown)}>
        {formatVolume(shown)}
      </output>
    </div>
  );
}
