// WebRTC listening (WHEP) on the daemon's side: which sink an offer is for, the listener cap,
// one session per client and sink, and statistics. The engine answers, encodes and sends
// (`engine.whepOffer` and friends); no audio passes through here.
import type { WhepSession } from '@tributary/native';
import type { ConfigSnapshot } from '../config/store.js';
import {
  BadOfferError,
  NoWhepSessionError,
  NoWhepSinkError,
  StaleIceSessionError,
  StreamUnavailableError,
} from '../errors.js';
import type { Sink } from '../schema/sink.js';
import { WEBRTC_PROFILE_KBPS } from '../schema/webrtc.js';
import type { EngineService, WhepEngine } from '../services/engine/service.js';
import type { WebrtcStreamStats, WhepSessionStats } from './schema.js';

/** What POST /api/whep/sink/{sink_id} answers. */
export interface WhepAnswer {
  readonly sessionId: string;
  readonly answerSdp: string;
  /** The entity tag of the session's ICE session, unquoted. */
  readonly etag: string;
  readonly sink: Sink;
}

/** What a PATCH did: `fragment` is set when it restarted ICE. */
export interface WhepPatched {
  readonly etag: string;
  readonly fragment: string | null;
}

/** Whether sessions made for `a` still fit `b` (else they are closed). */
function sameListening(a: Sink, b: Sink): boolean {
  return (
    b.enabled &&
    b.webrtc.enabled &&
    a.webrtc.profile === b.webrtc.profile &&
    a.webrtc.session_timeout === b.webrtc.session_timeout
  );
}

/** Whether the engine's error is about the offer (InvalidArg) rather than the server. */
function isOfferError(err: unknown): boolean {
  return (err as { code?: string }).code === 'InvalidArg';
}

export class WhepListening {
  readonly #engine: EngineService;
  #sinks: readonly Sink[] = [];
  /** Sinks listened to since the daemon started (kept for their statistics). */
  readonly #seen = new Map<string, Sink>();
  /** Sessions ended per sink (closed, replaced, timed out). */
  readonly #ended = new Map<string, number>();
  /** Sessions open at the last look, to count those the engine ended on its own. */
  #open = new Map<string, string>();

  constructor(engine: EngineService) {
    this.#engine = engine;
  }

  /** Follows the configuration: sessions of sinks gone, disabled or changed are closed. */
  update(snapshot: Pick<ConfigSnapshot, 'config'>): void {
    this.#sinks = snapshot.config.sinks;
    const whep = this.#engine.whep;
    if (!whep) return;
    for (const s of this.#sessions(whep)) {
      const before = this.#seen.get(s.sinkId);
      const now = this.#sinks.find((x) => x.config_id === s.sinkId);
      if (!before || !now || !sameListening(before, now)) whep.whepClose(s.id);
      if (now) this.#seen.set(now.config_id, now);
    }
    this.#sessions(whep);
  }

  /** The real, enabled sink `id` (config_id or name) with WebRTC on; throws 404 otherwise. */
  find(id: string): Sink {
    const sink =
      this.#sinks.find((s) => s.config_id === id) ?? this.#sinks.find((s) => s.name === id);
    if (!sink) throw new NoWhepSinkError(id, 'no sink has that config_id or name');
    if (sink.is_group) throw new NoWhepSinkError(id, 'it is a group: listen to a member');
    if (!sink.enabled) throw new NoWhepSinkError(id, 'the sink is disabled');
    if (!sink.webrtc.enabled) throw new NoWhepSinkError(id, 'webrtc.enabled is false');
    return sink;
  }

  /**
   * Answers `offerSdp` for sink `id` from `client`: the client's earlier session of that sink
   * is closed first; 503 when the sink has webrtc.max_listeners sessions or the engine is off.
   */
  offer(id: string, offerSdp: string, client: string): WhepAnswer {
    const sink = this.find(id);
    const whep = this.#engine.whep;
    if (!whep) throw new StreamUnavailableError('the audio engine is not running');
    const mine = this.#sessions(whep).filter((s) => s.sinkId === sink.config_id);
    for (const s of mine.filter((x) => x.client === client)) this.#close(whep, s.id);
    const others = mine.filter((s) => s.client !== client).length;
    if (others >= sink.webrtc.max_listeners) {
      throw new StreamUnavailableError(
        `sink '${sink.name}' has ${others} WebRTC listeners, its webrtc.max_listeners`,
      );
    }
    const bind = this.#engine.webrtcBind;
    try {
      const answer = whep.whepOffer(sink.config_id, offerSdp, {
        profile: sink.webrtc.profile,
        client,
        timeoutMs: sink.webrtc.session_timeout * 1000,
        addresses: bind.addresses,
        port: bind.port,
      });
      this.#seen.set(sink.config_id, sink);
      this.#open.set(answer.sessionId, sink.config_id);
      return { ...answer, sink };
    } catch (err) {
      const reason = (err as Error).message;
      if (isOfferError(err)) throw new BadOfferError(reason);
      throw new StreamUnavailableError(`the WebRTC session cannot start: ${reason}`);
    }
  }

  /**
   * A PATCH of session `id` with the request's If-Match: trickled ICE candidates, or an ICE
   * restart when `frag` carries new ice-ufrag/ice-pwd; 412 when If-Match names an older ICE
   * session.
   */
  patch(id: string, frag: string, ifMatch: string | undefined): WhepPatched {
    const whep = this.#engine.whep;
    if (!whep) throw new NoWhepSessionError(id);
    let result: ReturnType<WhepEngine['whepPatch']>;
    try {
      result = whep.whepPatch(id, frag, ifMatch);
    } catch (err) {
      throw new BadOfferError((err as Error).message);
    }
    if (result.outcome === 'unknown') throw new NoWhepSessionError(id);
    if (result.outcome === 'stale') throw new StaleIceSessionError(ifMatch ?? '');
    return { etag: result.etag ?? '', fragment: result.fragment ?? null };
  }

  /** Ends session `id`. */
  close(id: string): void {
    const whep = this.#engine.whep;
    if (!whep || !this.#close(whep, id)) throw new NoWhepSessionError(id);
  }

  /** The statistics of session `id`. */
  session(id: string): WhepSessionStats {
    const whep = this.#engine.whep;
    const s = whep ? this.#sessions(whep).find((x) => x.id === id) : undefined;
    if (!s) throw new NoWhepSessionError(id);
    return this.#view(s);
  }

  /** One entry per sink listened to since the daemon started. */
  stats(): WebrtcStreamStats[] {
    const whep = this.#engine.whep;
    const sessions = whep ? this.#sessions(whep) : [];
    return [...this.#seen.values()].map((sink) => {
      const mine = sessions.filter((s) => s.sinkId === sink.config_id);
      const sum = (f: (s: WhepSession) => number) => mine.reduce((n, s) => n + f(s), 0);
      return {
        sink: sink.name,
        config_id: sink.config_id,
        format: 'webrtc' as const,
        profile: sink.webrtc.profile,
        bitrate_kbps: WEBRTC_PROFILE_KBPS[sink.webrtc.profile],
        listeners: mine.length,
        bytes_sent: sum((s) => s.bytes),
        packets_sent: sum((s) => s.packets),
        dropped_packets: sum((s) => s.dropped),
        sessions_closed: this.#ended.get(sink.config_id) ?? 0,
        sessions: mine.map((s) => this.#view(s)),
      };
    });
  }

  /** Ends every session (the daemon is closing). */
  closeAll(): void {
    const whep = this.#engine.whep;
    if (whep) for (const s of whep.whepSessions()) whep.whepClose(s.id);
  }

  /** The engine's sessions; those gone since the last look are counted as ended. */
  #sessions(whep: WhepEngine): WhepSession[] {
    const list = whep.whepSessions();
    const open = new Map(list.map((s) => [s.id, s.sinkId]));
    for (const [id, sinkId] of this.#open) {
      if (!open.has(id)) this.#ended.set(sinkId, (this.#ended.get(sinkId) ?? 0) + 1);
    }
    this.#open = open;
    return list;
  }

  #close(whep: WhepEngine, id: string): boolean {
    const closed = whep.whepClose(id);
    this.#sessions(whep);
    return closed;
  }

  #view(s: WhepSession): WhepSessionStats {
    return {
      session_id: s.id,
      sink: this.#seen.get(s.sinkId)?.name ?? s.sinkId,
      config_id: s.sinkId,
      profile: s.profile,
      connected: s.connected,
      listener: s.remote,
      packets: s.packets,
      bytes: s.bytes,
      packets_lost: s.packetsLost,
      loss: s.loss,
      jitter_ms: s.jitterS * 1000,
      rtt_ms: s.rttS === null ? null : s.rttS * 1000,
      duration_s: s.durationS,
      dropped_packets: s.dropped,
      ice_restarts: s.iceRestarts,
    };
  }
}
