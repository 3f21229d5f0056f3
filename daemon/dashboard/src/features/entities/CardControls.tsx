// Direct manipulation on every card: favorite star, mute, volume and the enable switch.
import type { ReactNode } from 'react';
import type { Kind } from '../../api/client';
import { useLive } from '../../api/hooks';
import { SpeakerIcon, StarIcon } from '../../ui/icons';
import { Switch } from '../../ui/Switch';
import { VolumeSlider } from '../../ui/VolumeSlider';
import { type Entity, setEnabled, setVolume, toggleFavorite, toggleMute } from './actions';

export function FavoriteButton({ entity }: { entity: Entity }) {
  const starred = useLive((s) => s.config?.favorites.includes(entity.config_id) ?? false);
  return (
    <button
      type="button"
      className="icon-button star"
      aria-pressed={starred}
      aria-label={`Favorite ${entity.name}`}
      onClick={() => void toggleFavorite(entity)}
    >
      <StarIcon filled={starred} />
    </button>
  );
}

export function MuteButton({ kind, entity }: { kind: Kind; entity: Entity }) {
  const muted = entity.volume === 0;
  return (
    <button
      type="button"
      className="icon-button"
      aria-pressed={muted}
      aria-label={`Mute ${entity.name}`}
      onClick={() => void toggleMute(kind, entity)}
    >
      <SpeakerIcon muted={muted} />
    </button>
  );
}

export function CardControls({
  kind,
  entity,
  compact = false,
  children,
}: {
  kind: Kind;
  entity: Entity;
  compact?: boolean;
  /** More controls at the row's end (a card's Details button). */
  children?: ReactNode;
}) {
  return (
    <div className="card-controls">
      <MuteButton kind={kind} entity={entity} />
      <VolumeSlider
        label={`Volume of ${entity.name}`}
        value={entity.volume}
        onChange={(gain) => setVolume(kind, entity.name, gain)}
        compact={compact}
      />
      <Switch
        label={`Enable ${entity.name}`}
        checked={entity.enabled}
        onChange={(on) => void setEnabled(kind, entity.name, on)}
      />
      {children}
    </div>
  );
}
