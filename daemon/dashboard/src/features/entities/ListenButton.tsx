// The Listen in Browser button of a sink with WebRTC listening (webrtc.enabled), named as the
// product spec names it: plays the sink's mix in
// this browser over WebRTC (WHEP), Opus in stereo; pressed again, it stops. The WHEP client is
// loaded on the first press, not with the dashboard.
import { useEffect, useRef, useState } from 'react';
import type { Sink } from '../../api/schema';
import type { WhepListener } from '../../lib/whep';
import { HeadphonesIcon } from '../../ui/icons';
import { toastError } from '../../ui/toasts';

type State = 'off' | 'starting' | 'on';

export function ListenButton({
  sink,
  onListening,
}: {
  sink: Sink;
  /** Told when this browser starts or stops playing the sink (the card says so). */
  onListening?: (on: boolean) => void;
}) {
  const [state, setState] = useState<State>('off');
  const told = useRef(onListening);
  told.current = onListening;
  useEffect(() => told.current?.(state === 'on'), [state]);
  const listener = useRef<WhepListener | null>(null);
  const audio = useRef<HTMLAudioElement | null>(null);
  useEffect(
    () => () => {
      void listener.current?.stop();
    },
    [],
  );
  if (sink.is_group || !sink.ip || sink.enabled === false || !sink.webrtc?.enabled) return null;

  async function toggle() {
    if (listener.current) {
      const current = listener.current;
      listener.current = null;
      if (audio.current) audio.current.srcObject = null;
      setState('off');
      await current.stop();
      return;
    }
    setState('starting');
    try {
      const { listen } = await import('../../lib/whep');
      const iceServers = (sink.webrtc?.ice_servers ?? []) as RTCIceServer[];
      const started = await listen(sink.config_id, iceServers);
      listener.current = started;
      if (audio.current) {
        audio.current.srcObject = started.stream;
        await audio.current.play();
      }
      setState('on');
    } catch (error) {
      setState('off');
      toastError(`Cannot listen to ${sink.name}`, (error as Error).message);
    }
  }

  return (
    <>
      <button
        type="button"
        className="button button-small button-secondary stream-link"
        aria-pressed={state === 'on'}
        aria-label={`Listen in Browser: ${sink.name}`}
        aria-busy={state === 'starting'}
        disabled={state === 'starting'}
        title={state === 'on' ? 'Playing here over WebRTC; press to stop' : undefined}
        onClick={() => void toggle()}
      >
        <HeadphonesIcon />
        {state === 'starting' ? 'Listen in Browser…' : 'Listen in Browser'}
      </button>
      {/* biome-ignore lint/a11y/useMediaCaption: live audio from the sink, nothing to caption */}
      <audio ref={audio} data-whep-sink={sink.config_id} hidden />
    </>
  );
}
