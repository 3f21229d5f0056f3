// Paints the route lines off the page's main thread: the canvas is handed over once
// (transferControlToOffscreen), then each message is a picture to paint. On the page, the
// canvas's bitmap went to the compositor in every frame's commit, about 4 ms a frame while the
// panels scroll at 32x16x64 (npm run bench -- dashboard); from here it goes on its own.
import { type Picture, paint } from './line-paint';

let canvas: OffscreenCanvas | null = null;

self.onmessage = (event: MessageEvent<{ canvas: OffscreenCanvas } | Picture>) => {
  if ('canvas' in event.data) canvas = event.data.canvas;
  else if (canvas) paint(canvas, event.data);
};
