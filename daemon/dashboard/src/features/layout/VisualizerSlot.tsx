/**
 * Where the visualizer goes (bottom of the dashboard, collapsible, click for fullscreen, H cycles
 * waveform / spectrum / bars). Not built yet: it needs the engine's levels WebSocket, which comes
 * with the engine's restructuring (phase 2 of the dashboard). Renders nothing until then.
 */
export function VisualizerSlot() {
  return null;
}
