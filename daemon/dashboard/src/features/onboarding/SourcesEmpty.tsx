// First run, no sources: how to send audio here, with commands filled in with this server's
// address (GET /api/network, or the name the browser used) and the engine's ports (/ws/stats).
import { Tabs } from 'radix-ui';
import { useEffect, useState } from 'react';
import { api } from '../../api/client';
import { useLive } from '../../api/hooks';
import type { NetworkInfo } from '../../api/schema';
import { senderAddress, senderCommands, senderPorts } from '../../lib/commands';
import { CopyCommand } from '../../ui/CopyCommand';
import { openDialog } from '../dialogs';
import { docsLink } from './docs';

export function useSenderCommands() {
  const engine = useLive((s) => s.activity.engine);
  const [network, setNetwork] = useState<NetworkInfo | null>(null);
  useEffect(() => {
    api.network().then(setNetwork, () => setNetwork(null));
  }, []);
  const address = senderAddress(network, location.hostname);
  const ports = senderPorts(engine);
  return { address, ports, commands: senderCommands(address, ports) };
}

export function SourcesEmpty() {
  const { address, ports, commands } = useSenderCommands();
  return (
    <div className="empty">
      <p>
        <strong>No sources yet.</strong> Send audio to this server ({address}, Scream on UDP{' '}
        {ports.scream}, RTP on UDP {ports.rtp}); it appears above as “Audio arriving from …”, one
        click from being a source. Or{' '}
        <button
          type="button"
          className="link-button"
          onClick={() => openDialog({ type: 'add-source', rtp: false })}
        >
          add a source by hand
        </button>
        .
      </p>
      <Tabs.Root className="tabs" defaultValue="windows">
        <Tabs.List className="tabs-list" aria-label="How to send audio">
          <Tabs.Trigger className="tab" value="windows">
            Windows (Scream)
          </Tabs.Trigger>
          <Tabs.Trigger className="tab" value="ffmpeg">
            ffmpeg
          </Tabs.Trigger>
          <Tabs.Trigger className="tab" value="pulse">
            PulseAudio / PipeWire
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content className="tab-panel" value="windows">
          <p>
            Install the Scream driver, then send to this server instead of multicast (in a command
            prompt run as administrator), and restart Windows:
          </p>
          <CopyCommand label="Windows commands" command={commands.windows} />
          <p>
            <a href={docsLink('install-windows-sender')} target="_blank" rel="noreferrer">
              Windows sender guide
            </a>
          </p>
        </Tabs.Content>
        <Tabs.Content className="tab-panel" value="ffmpeg">
          <p>Send what a Linux desktop plays as RTP (a file works too: replace the input):</p>
          <CopyCommand label="ffmpeg command" command={commands.ffmpeg} />
          <p>Then add the sender as an RTP source (format S16BE, 48000 Hz, 2 channels).</p>
        </Tabs.Content>
        <Tabs.Content className="tab-panel" value="pulse">
          <p>
            Make a “Tributary” output on a Linux desktop that streams here; play anything to it:
          </p>
          <CopyCommand label="PulseAudio commands" command={commands.pulseaudio} />
          <p>
            <a href={docsLink('rtp-configuration')} target="_blank" rel="noreferrer">
              RTP streaming guide
            </a>
          </p>
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}
