// The Active Source strip: the selected source, its state, media buttons (when it has a VNC host:
// they send through /sources/{name}/play|nexttrack|prevtrack), mute and volume, and which sinks it
// plays on, and its level meter (what it sends into the routes, from the engine).
import { useLive } from '../../api/hooks';
import type { Source } from '../../api/schema';
import { Chip } from '../../ui/Chip';
import { LevelMeter } from '../../ui/LevelMeter';
import { VolumeSlider } from '../../ui/VolumeSlider';
import { setVolume } from '../entities/actions';
import { MuteButton } from '../entities/CardControls';
import { MediaButtons } from '../entities/MediaButtons';
import { VncLink } from '../entities/VncLink';
import { GroupLevel } from '../groups/GroupLevel';
import { activeSource } from './registry';

/** The active source: the one chosen on this device, else the first favorite source, else the first. */
export function useActiveSource(): Source | null {
  const chosen = activeSource.useValue();
  return useLive((s) => {
    const sources = s.config?.sources ?? [];
    return (
      sources.find((x) => x.config_id === chosen) ??
      sources.find((x) => s.config?.favorites.includes(x.config_id)) ??
      sources[0] ??
      null
    );
  });
}

export function ActiveSource() {
  const source = useActiveSource();
  const chip = useLive((s) =>
    source ? s.activity.sources.get(source.config_id)?.chip : undefined,
  );
  const playsOn = useLive((s) => (source ? s.activity.playsOn.get(source.config_id) : undefined));
  if (!source) {
    return (
      <section className="active-source" aria-label="Active source">
        <p className="muted">No source yet: add one to control it here.</p>
      </section>
    );
  }
  return (
    <section className="active-source" aria-label="Active source">
      <div className="active-name">
        <span className="active-label">Active source</span>
        <strong>{source.name}</strong>
        {chip && <Chip chip={chip} />}
      </div>
      <div className="active-level">
        {source.is_group ? (
          <GroupLevel group={source} />
        ) : (
          <LevelMeter configId={source.config_id} name={source.name} kind="source" />
        )}
      </div>
      {source.vnc_ip && (
        <>
          <MediaButtons source={source.name} />
          <VncLink source={source.name} />
        </>
      )}
      <div className="active-volume">
        <MuteButton kind="source" entity={source} />
        <VolumeSlider
          label={`Volume of ${source.name} (active source)`}
          value={source.volume}
          onChange={(gain) => setVolume('source', source.name, gain)}
        />
      </div>
      <p className="plays-on">
        {playsOn && playsOn.length > 0 ? (
          <>
            Plays on <strong>{playsOn.join(', ')}</strong>
          </>
        ) : (
          'Not playing on any sink'
        )}
      </p>
    </section>
  );
}
