// The words on the cards: what kind of entry it is, where it is, its format and its counters.
import type { Sink, SinkStats, Source, SourceStats } from '../../api/schema';

const number = new Intl.NumberFormat('en');

export function sourceKind(source: Source): string {
  if (source.is_group) return `Source group · ${source.group_members.length} members`;
  if (source.rtp)
    return `RTP ${source.rtp.format} · ${source.rtp.sample_rate / 1000} kHz · ${source.rtp.channels} ch`;
  if (source.tag) return 'Per-application Scream';
  return 'Scream';
}

export function sourceAddress(source: Source): string | null {
  if (source.is_group) return null;
  const from = source.tag ?? source.ip ?? 'any sender';
  return source.rtp ? `${from} → port ${source.rtp.port}` : from;
}

export function sinkKind(sink: Sink): string {
  if (sink.is_group) return `Sink group · ${sink.group_members.length} members`;
  const address = sink.ip ? `${sink.ip}${sink.port ? `:${sink.port}` : ''}` : 'no address yet';
  return `${sink.protocol === 'tcp' ? 'TCP' : sink.protocol === 'rtp' ? 'RTP' : 'Scream'} · ${address}`;
}

export function sinkFormat(sink: Sink): string | null {
  if (sink.is_group) return null;
  return `${sink.sample_rate / 1000} kHz · ${sink.bit_depth}-bit · ${sink.channel_layout}`;
}

export function sourceCounters(stats: SourceStats): string {
  const total = stats.packets + stats.lost;
  const loss = total > 0 ? (100 * stats.lost) / total : 0;
  const drift = Math.round(stats.drift_ppm);
  return [
    `${number.format(stats.packets)} packets`,
    `${loss.toFixed(loss > 0 && loss < 0.1 ? 2 : 1)} % lost`,
    `jitter ${stats.jitter_ms.toFixed(1)} ms`,
    `buffer ${Math.round(stats.buffer_ms)} ms`,
    drift === 0 ? 'clock in step' : `clock ${Math.abs(drift)} ppm ${drift > 0 ? 'fast' : 'slow'}`,
  ].join(' · ');
}

export function sinkCounters(stats: SinkStats, underrunsLastMinute: number): string {
  return [
    `${number.format(stats.packets)} packets sent`,
    `${underrunsLastMinute} underruns in the last minute`,
    ...(stats.send_errors > 0 ? [`${number.format(stats.send_errors)} send errors`] : []),
  ].join(' · ');
}
