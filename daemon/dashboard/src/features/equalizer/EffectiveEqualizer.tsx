import type { SolvedPath } from '../../api/schema';
import { EQ_BAND_FREQUENCIES_HZ } from '../../api/schema';
import { formatHz } from '../../lib/frequency';

/** The cumulative equalizer the engine applies on each path of a route, read-only. */
export function EffectiveEqualizer({ paths }: { paths: readonly SolvedPath[] }) {
  return (
    <section className="eq-effective" aria-labelledby="eq-effective-title">
      <h3 id="eq-effective-title">Effective equalizer (source × route × sink)</h3>
      {paths.length === 0 ? (
        <p className="muted">
          Nothing plays through this route now (its source or sink is disabled, or another route
          plays the same pair).
        </p>
      ) : (
        <section aria-label="Effective equalizer by path">
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the wide table scrolls; the keyboard must reach it */}
          <div className="table-scroll" tabIndex={0}>
            <table>
              <thead>
                <tr>
                  <th scope="col">Path</th>
                  {EQ_BAND_FREQUENCIES_HZ.map((hz) => (
                    <th scope="col" key={hz}>
                      {formatHz(hz)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {paths.map((p) => (
                  <tr key={`${p.source_config_id}-${p.via.at(-1)?.config_id}`}>
                    <th scope="row">{p.via.map((step) => step.name).join(' → ')}</th>
                    {p.eq.map((gain, i) => (
                      <td
                        key={EQ_BAND_FREQUENCIES_HZ[i]}
                        data-boost={gain > 1 ? 'up' : gain < 1 ? 'down' : undefined}
                      >
                        {gain.toFixed(2)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
    </section>
  );
}
