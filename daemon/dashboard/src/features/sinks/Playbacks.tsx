// What plays on a sink from a URL (the play-URL plugins), each with a Stop button.
import { useState } from 'react';
import { api, errorMessage } from '../../api/client';
import { refreshPlaybacks, usePlaybacks } from '../../api/playbacks';
import type { PlaybackView, Sink } from '../../api/schema';
import { playbackLabel, playbacksOn } from '../../lib/playbacks';
import { toastError } from '../../ui/toasts';

export function Playbacks({ sink }: { sink: Sink }) {
  const all = usePlaybacks();
  const mine = playbacksOn(all, sink);
  if (mine.length === 0) return null;
  return (
    <ul className="card-playbacks" aria-label={`Playing from URLs on ${sink.name}`}>
      {mine.map((playback) => (
        <PlaybackRow key={playback.id} playback={playback} />
      ))}
    </ul>
  );
}

function PlaybackRow({ playback }: { playback: PlaybackView }) {
  const [stopping, setStopping] = useState(false);
  const label = playbackLabel(playback);
  const stop = async () => {
    setStopping(true);
    try {
      await api.stopPlayback(playback.id);
    } catch (failure) {
      toastError(`Could not stop ${label}`, errorMessage(failure));
    } finally {
      setStopping(false);
      void refreshPlaybacks();
    }
  };
  return (
    <li className="card-playback">
      <span className="card-playback-name" title={playback.items.map((i) => i.url).join('\n')}>
        Playing {label}
      </span>
      <button
        type="button"
        className="button button-secondary button-small"
        disabled={stopping}
        aria-label={`Stop ${label}`}
        onClick={() => void stop()}
      >
        Stop
      </button>
    </li>
  );
}
