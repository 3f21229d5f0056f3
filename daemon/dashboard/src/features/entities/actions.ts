// Every change a card or a shortcut makes, through the API: the daemon saves it and /ws/config
// brings it back to every open dashboard. Failures become a toast in the API's own words.
import { api, errorMessage, type Kind } from '../../api/client';
import { live } from '../../api/live';
import {
  DELAY_MAX_MS,
  DELAY_MIN_MS,
  type Route,
  type Sink,
  type Source,
  type UnknownSender,
} from '../../api/schema';
import { restoreFavorite, toggleFavorite as toggled } from '../../lib/favorites';
import { routeName, uniqueName } from '../../lib/names';
import { steps } from '../../lib/steps';
import { stepGain } from '../../lib/volume';
import { toast, toastError } from '../../ui/toasts';
import { revealCard } from '../layout/registry';

export type Entity = Source | Sink | Route;
export const KIND_WORD: Record<Kind, string> = { source: 'source', sink: 'sink', route: 'route' };

const favorites = () => live.getState().config?.favorites ?? [];

/** Runs a change; on failure shows why (and rethrows, so a slider can go back). */
async function attempt<T>(what: string, change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (error) {
    toastError(`Could not ${what}`, errorMessage(error));
    throw error;
  }
}

export function setVolume(kind: Kind, name: string, volume: number): Promise<unknown> {
  return attempt(`change the volume of ${name}`, () => api.update(kind, name, { volume }));
}

export function setEnabled(kind: Kind, name: string, enabled: boolean): Promise<unknown> {
  return attempt(`${enabled ? 'enable' : 'disable'} ${name}`, () =>
    api.update(kind, name, { enabled }),
  ).catch(() => undefined);
}

export function setDelay(kind: Kind, name: string, delay: number): Promise<unknown> {
  return api.update(kind, name, { delay });
}

/** Unmuting something muted with no level kept (set to 0 another way) goes to half volume. */
export const UNMUTE_DEFAULT = 0.5;

/**
 * Mute sets the volume to 0 and keeps the level it had in the entry itself (`unmute_volume`), so
 * every browser and app unmutes to it; unmute restores it and clears it.
 */
export function toggleMute(kind: Kind, entity: Entity): Promise<unknown> {
  const patch =
    entity.volume > 0
      ? { volume: 0, unmute_volume: entity.volume }
      : { volume: entity.unmute_volume ?? UNMUTE_DEFAULT, unmute_volume: null };
  return attempt(`${entity.volume > 0 ? 'mute' : 'unmute'} ${entity.name}`, () =>
    api.update(kind, entity.name, patch),
  ).catch(() => undefined);
}

/** One volume step (2 dB) from the last step asked for, so quick presses all count. */
export function stepVolume(kind: Kind, entity: Entity, direction: 1 | -1): Promise<unknown> {
  const key = `${kind}:${entity.config_id}:volume`;
  const gain = stepGain(steps.base(key, entity.volume), direction);
  return steps.apply(key, gain, (volume) => setVolume(kind, entity.name, volume));
}

/** The delay one step (10 ms) on from the last step asked for, within the API's range. */
export function stepDelay(kind: Kind, entity: Entity, by: number): Promise<unknown> {
  const key = `${kind}:${entity.config_id}:delay`;
  const delay = Math.min(DELAY_MAX_MS, Math.max(DELAY_MIN_MS, steps.base(key, entity.delay) + by));
  return steps.apply(key, delay, (value) => setDelay(kind, entity.name, value));
}

export function toggleFavorite(entity: Entity): Promise<unknown> {
  return attempt('change the favorites', () =>
    api.setFavorites(toggled(favorites(), entity.config_id)),
  ).catch(() => undefined);
}

export function saveFavorites(list: string[]): Promise<unknown> {
  return attempt('reorder the favorites', () => api.setFavorites(list)).catch(() => undefined);
}

export function media(
  source: string,
  command: 'play' | 'nexttrack' | 'prevtrack',
): Promise<unknown> {
  const words = {
    play: 'play or pause',
    nexttrack: 'skip to the next track',
    prevtrack: 'go to the previous track',
  };
  return attempt(`${words[command]} on ${source}`, () => api.media(source, command)).catch(
    () => undefined,
  );
}

/**
 * Deletes after the dialog's confirmation (the caller shows a refusal, e.g. a 409 naming what uses
 * it) and offers Undo for a few seconds: the same entry is created again, with its config_id, and
 * its star put back where it was.
 */
export async function deleteWithUndo(kind: Kind, entity: Entity): Promise<void> {
  const starredAt = favorites().indexOf(entity.config_id);
  await api.remove(kind, entity.name);
  toast({
    title: `Deleted ${KIND_WORD[kind]} ${entity.name}`,
    duration: 8000,
    action: {
      label: 'Undo',
      run: () => {
        void attempt(`restore ${entity.name}`, async () => {
          await api.add(kind, entity as never);
          if (starredAt >= 0) {
            await api.setFavorites(restoreFavorite(favorites(), entity.config_id, starredAt));
          }
          toast({ title: `Restored ${entity.name}` });
        }).catch(() => undefined);
      },
    },
  });
}

/** Creates a route from `source` to `sink` (a drag or the "Play on" menu), named after them. */
export async function connect(source: string, sink: string): Promise<void> {
  const config = live.getState().config;
  if (!config) return;
  const existing = config.routes.find((r) => r.source === source && r.sink === sink);
  if (existing) {
    toast({ title: `${source} already plays on ${sink}`, description: `Route ${existing.name}.` });
    return;
  }
  const name = uniqueName(
    routeName(source, sink),
    config.routes.map((r) => r.name),
  );
  await attempt(`route ${source} to ${sink}`, () => api.add('route', { name, source, sink }))
    .then((route) => {
      toast({ title: `Route created: ${source} → ${sink}` });
      revealCard(route.config_id);
    })
    .catch(() => undefined);
}

/** One click on the "Audio arriving from ..." banner: a source that matches that sender. */
export async function addUnknownSender(sender: UnknownSender): Promise<void> {
  const config = live.getState().config;
  if (!config) return;
  const base = sender.tag ?? `${sender.kind === 'rtp' ? 'RTP' : 'Scream'} ${sender.address}`;
  const name = uniqueName(
    base.replaceAll('/', ' '),
    config.sources.map((s) => s.name),
  );
  const input =
    sender.kind === 'rtp'
      ? { name, ip: sender.address, rtp: { port: sender.port } }
      : sender.tag !== null
        ? { name, tag: sender.tag }
        : { name, ip: sender.address };
  await attempt(`add ${name}`, () => api.add('source', input))
    .then(() =>
      toast({ title: `Added source ${name}`, description: 'Route it to a sink to hear it.' }),
    )
    .catch(() => undefined);
}
