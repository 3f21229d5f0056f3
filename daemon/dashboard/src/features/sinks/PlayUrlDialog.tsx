// "Play a URL" on a sink or sink group: POST /plugins/playurlmultiple/play {urls: [url], sink}.
// The API's refusal goes next to the field; on success a toast says what plays and the dialog
// closes (the card then shows the playback with its Stop button).
import { type FormEvent, useState } from 'react';
import { ApiError, api, errorMessage } from '../../api/client';
import { refreshPlaybacks } from '../../api/playbacks';
import { playUrlRefusal, urlLabel } from '../../lib/playbacks';
import { Dialog } from '../../ui/Dialog';
import { Field } from '../../ui/Field';
import { toast } from '../../ui/toasts';
import { closeDialog } from '../dialogs';

export default function PlayUrlDialog({ sink }: { sink: string }) {
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const play = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      await api.playUrls({ urls: [url.trim()], sink });
      void refreshPlaybacks();
      toast({ title: `Playing ${urlLabel(url.trim())} on ${sink}` });
      closeDialog();
    } catch (failure) {
      setError(
        failure instanceof ApiError
          ? playUrlRefusal(failure.status, failure.message, failure.details)
          : errorMessage(failure),
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      title={`Play a URL on ${sink}`}
      description="A sound file or an internet radio stream, mixed over what already plays there."
      onClose={closeDialog}
    >
      <form onSubmit={play} noValidate aria-busy={busy || undefined}>
        <Field
          label="URL"
          hint="http or https (MP3, AAC, FLAC, WAV, Ogg Vorbis or Opus), or a file: URL in the play-URL folder"
          errors={error ? [error] : undefined}
        >
          <input
            type="url"
            required
            value={url}
            placeholder="http://192.168.1.20:8123/chime.mp3"
            onChange={(event) => setUrl(event.target.value)}
          />
        </Field>
        <div className="form-actions">
          <button type="button" className="button button-secondary" onClick={closeDialog}>
            Cancel
          </button>
          <button type="submit" className="button" disabled={busy || url.trim() === ''}>
            {busy ? 'Starting…' : 'Play'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
