// The visualizer's styles, in the order H cycles them.
export const VISUALIZER_STYLES = ['waveform', 'spectrum', 'bars'] as const;
export type VisualizerStyle = (typeof VISUALIZER_STYLES)[number];

/** The style after `style`. */
export function nextStyle(style: VisualizerStyle): VisualizerStyle {
  return VISUALIZER_STYLES[(VISUALIZER_STYLES.indexOf(style) + 1) % VISUALIZER_STYLES.length]!;
}
