import type { Equalizer } from '../../api/schema';

/**
 * The equalizer's response curve, computed from the engine's own filter design. Not built yet:
 * it needs the engine's response function through the napi binding (phase 2 of the dashboard).
 * The dialog keeps its place above the sliders.
 */
export function ResponseCurve(_props: { bands: Equalizer }) {
  return null;
}
