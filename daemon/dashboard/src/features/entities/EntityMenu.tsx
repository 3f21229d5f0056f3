// The ⋯ menu of a card: Edit, Equalizer, Delay, (sources) Play on a sink, (sinks) Play a URL,
// Delete.
import { DropdownMenu } from 'radix-ui';
import type { Kind } from '../../api/client';
import { useLive } from '../../api/hooks';
import { MoreIcon } from '../../ui/icons';
import { openDialog } from '../dialogs';
import { connect } from './actions';

export function EntityMenu({ kind, name }: { kind: Kind; name: string }) {
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className="icon-button" aria-label={`Actions for ${name}`}>
        <MoreIcon />
      </DropdownMenu.Trigger>
      <DropdownMenu.Content className="menu" align="end" sideOffset={4}>
        <DropdownMenu.Item
          className="menu-item"
          onSelect={() => openDialog({ type: 'edit', kind, name })}
        >
          Edit
        </DropdownMenu.Item>
        <DropdownMenu.Item
          className="menu-item"
          onSelect={() => openDialog({ type: 'equalizer', kind, name })}
        >
          Equalizer
        </DropdownMenu.Item>
        <DropdownMenu.Item
          className="menu-item"
          onSelect={() => openDialog({ type: 'delay', kind, name })}
        >
          Delay
        </DropdownMenu.Item>
        {kind === 'source' && <PlayOn source={name} />}
        {kind === 'sink' && (
          <DropdownMenu.Item
            className="menu-item"
            onSelect={() => openDialog({ type: 'play-url', sink: name })}
          >
            Play a URL…
          </DropdownMenu.Item>
        )}
        <DropdownMenu.Separator className="menu-separator" />
        <DropdownMenu.Item
          className="menu-item menu-item-danger"
          onSelect={() => openDialog({ type: 'delete', kind, name })}
        >
          Delete
        </DropdownMenu.Item>
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}

/** One click routes the source to a sink (the menu's alternative to dragging). */
function PlayOn({ source }: { source: string }) {
  const sinks = useLive((s) => s.config?.sinks ?? []);
  if (sinks.length === 0) return null;
  return (
    <DropdownMenu.Sub>
      <DropdownMenu.SubTrigger className="menu-item">Play on…</DropdownMenu.SubTrigger>
      <DropdownMenu.SubContent className="menu" sideOffset={4}>
        {sinks.map((sink) => (
          <DropdownMenu.Item
            key={sink.config_id}
            className="menu-item"
            onSelect={() => void connect(source, sink.name)}
          >
            {sink.name}
          </DropdownMenu.Item>
        ))}
      </DropdownMenu.SubContent>
    </DropdownMenu.Sub>
  );
}
