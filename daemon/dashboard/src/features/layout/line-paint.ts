// What the route lines' canvas shows, as data (RouteLines.tsx measures the cards and works out
// each stroke), and the painting of it, which runs in a worker (lines-worker.ts) where the
// browser can move the canvas there, else on the page.

export interface Stroke {
  /** The SVG path (line-geometry.ts). */
  readonly d: string;
  readonly dashed: boolean;
  readonly alpha: number;
  readonly colour: string;
  readonly width: number;
}

export interface Picture {
  /** CSS pixels, and device pixels per CSS pixel. */
  readonly width: number;
  readonly height: number;
  readonly ratio: number;
  readonly strokes: readonly Stroke[];
}

export function paint(canvas: HTMLCanvasElement | OffscreenCanvas, picture: Picture): void {
  const width = Math.round(picture.width * picture.ratio);
  const height = Math.round(picture.height * picture.ratio);
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
  }
  const context = canvas.getContext('2d') as
    | CanvasRenderingContext2D
    | OffscreenCanvasRenderingContext2D
    | null;
  if (!context) return;
  context.setTransform(picture.ratio, 0, 0, picture.ratio, 0, 0);
  context.clearRect(0, 0, picture.width, picture.height);
  for (const stroke of picture.strokes) {
    context.setLineDash(stroke.dashed ? [5, 5] : []);
    context.globalAlpha = stroke.alpha;
    context.strokeStyle = stroke.colour;
    context.lineWidth = stroke.width;
    context.stroke(new Path2D(stroke.d));
  }
}
