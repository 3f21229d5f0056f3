// Previous, play/pause and next for a source with a VNC host: GET /sources/{name}/prevtrack,
// play, nexttrack, which send the media keys to that computer.
import { NextIcon, PlayPauseIcon, PrevIcon } from '../../ui/icons';
import { media } from './actions';

/** `named`: put the source's name in each button's label (where several sources show them). */
export function MediaButtons({ source, named = false }: { source: string; named?: boolean }) {
  const label = (action: string, preposition: string) =>
    named ? `${action} ${preposition} ${source}` : action;
  return (
    <span className="media">
      <button
        type="button"
        className="icon-button"
        aria-label={label('Previous track', 'on')}
        onClick={() => void media(source, 'prevtrack')}
      >
        <PrevIcon />
      </button>
      <button
        type="button"
        className="icon-button"
        aria-label={named ? `Play or pause ${source}` : 'Play or pause'}
        onClick={() => void media(source, 'play')}
      >
        <PlayPauseIcon />
      </button>
      <button
        type="button"
        className="icon-button"
        aria-label={label('Next track', 'on')}
        onClick={() => void media(source, 'nexttrack')}
      >
        <NextIcon />
      </button>
    </span>
  );
}
