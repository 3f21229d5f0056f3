// Temporary plugin sources: played on a sink (or sink group) as if a route linked them, held in
// memory only (never saved, not in GET /sources or the configuration), gone when their plugin
// removes them. Each is a source and a route in the engine service's overlay, so the solver
// gives its path the sink's own volume, equalizer and delay (a group's members each theirs)
// and it mixes with whatever plays there. Their names hold a "/", which no configured name may.
import { randomUUID } from 'node:crypto';
import { FLAT_EQUALIZER } from '../schema/common.js';
import { ROUTE_DEFAULTS, type Route } from '../schema/route.js';
import { SOURCE_DEFAULTS, type Source } from '../schema/source.js';
import type { Overlay } from '../services/engine/service.js';

/** Where temporary sources go: the engine service's overlay. */
export interface OverlayTarget {
  setOverlay(overlay: Overlay): void;
}

/** One temporary source as it plays. */
export interface TemporarySource {
  /** The engine's id of the source (its in-process source's id too). */
  readonly id: string;
  /** Its name in the statistics: `{plugin}/{label}`. */
  readonly name: string;
  /** The sink or sink group it plays on, as the request named it. */
  readonly sink: string;
}

export class TemporarySources {
  readonly #target: OverlayTarget;
  readonly #entries = new Map<string, { source: Source; route: Route }>();

  constructor(target: OverlayTarget) {
    this.#target = target;
  }

  /**
   * Plays the in-process source `id` on `sink` (the name of a configured sink or sink group)
   * at `volume` (0-1), named `{plugin}/{label}` in the statistics.
   */
  add(plugin: string, label: string, id: string, sink: string, volume = 1): TemporarySource {
    const name = `${plugin}/${label}`;
    const source: Source = {
      ...SOURCE_DEFAULTS,
      group_members: [],
      name,
      config_id: id,
      equalizer: { ...FLAT_EQUALIZER },
      rtp: null,
      plugin_format: null,
    };
    const route: Route = {
      ...ROUTE_DEFAULTS,
      name: `${name} -> ${sink}`,
      config_id: randomUUID(),
      source: name,
      sink,
      volume,
      equalizer: { ...FLAT_EQUALIZER },
    };
    this.#entries.set(id, { source, route });
    this.#publish();
    return { id, name, sink };
  }

  /** Stops playing the source `id`; false when it was not playing. */
  remove(id: string): boolean {
    if (!this.#entries.delete(id)) return false;
    this.#publish();
    return true;
  }

  /** How many play now. */
  get size(): number {
    return this.#entries.size;
  }

  #publish(): void {
    const entries = [...this.#entries.values()];
    this.#target.setOverlay({
      sources: entries.map((e) => e.source),
      routes: entries.map((e) => e.route),
    });
  }
}
