// The equalizer's response curve, computed by the server from the engine's own filter design
// (POST /api/equalizer/response), so what it draws is what the engine plays. Asked again as the
// sliders move (at most every 80 ms; a late answer for older bands is dropped).
import { useEffect, useMemo, useRef, useState } from 'react';
import { api, errorMessage } from '../../api/client';
import type { EqResponse, Equalizer } from '../../api/schema';
import {
  CURVE_MAX_DB,
  CURVE_MIN_DB,
  curvePath,
  describeCurve,
  xOfHz,
  yOfDb,
} from '../../lib/response-curve';
import { throttle } from '../../lib/throttle';

const WIDTH = 600;
const HEIGHT = 140;
const GRID_HZ = [100, 1000, 10_000];
const GRID_DB = [6, 0, -6, -12, -18];

export function ResponseCurve({ bands, sampleRate }: { bands: Equalizer; sampleRate: number }) {
  const [curve, setCurve] = useState<EqResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const asked = useRef(0);
  const ask = useMemo(
    () =>
      throttle((next: Equalizer) => {
        const id = ++asked.current;
        api
          .eqResponse(next, sampleRate)
          .then((answer) => {
            if (id !== asked.current) return;
            setCurve(answer);
            setError(null);
          })
          .catch((failure) => id === asked.current && setError(errorMessage(failure)));
      }, 80),
    [sampleRate],
  );
  useEffect(() => () => ask.cancel(), [ask]);
  useEffect(() => {
    ask(bands);
  }, [ask, bands]);

  const summary = curve ? describeCurve(curve.frequencies, curve.db) : 'Computing the response…';
  return (
    <figure className="eq-curve">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={`Response curve at ${sampleRate} Hz. ${summary}`}
        preserveAspectRatio="none"
      >
        {GRID_DB.map((db) => (
          <line
            key={db}
            className={db === 0 ? 'eq-curve-zero' : 'eq-curve-grid'}
            x1={0}
            x2={WIDTH}
            y1={yOfDb(db, HEIGHT)}
            y2={yOfDb(db, HEIGHT)}
          />
        ))}
        {GRID_HZ.map((hz) => (
          <line
            key={hz}
            className="eq-curve-grid"
            x1={xOfHz(hz, WIDTH)}
            x2={xOfHz(hz, WIDTH)}
            y1={0}
            y2={HEIGHT}
          />
        ))}
        {curve && (
          <path
            className="eq-curve-line"
            d={curvePath(curve.frequencies, curve.db, WIDTH, HEIGHT)}
            data-testid="eq-curve"
          />
        )}
      </svg>
      <figcaption className="eq-curve-caption">
        <span>
          {summary} (scale {CURVE_MIN_DB} to +{CURVE_MAX_DB} dB; 100 Hz, 1 kHz, 10 kHz marked)
        </span>
        {error && <span className="form-error"> The curve could not be computed: {error}</span>}
      </figcaption>
    </figure>
  );
}
