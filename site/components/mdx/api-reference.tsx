import { loadOpenApi } from '@/lib/openapi';

/** The API reference, generated at build time from daemon/openapi.json. */
export function ApiReference() {
  const doc = loadOpenApi();
  if (!doc) {
    return (
      <aside className="callout callout-note" aria-label="API reference pending">
        <p className="callout-title">API reference not generated yet</p>
        <p>
          This reference is generated from the daemon&apos;s OpenAPI document,{' '}
          <code>daemon/openapi.json</code>, which is not in this build.
        </p>
      </aside>
    );
  }
  return (
    <p>
      {doc.info.title} {doc.info.version}: {Object.keys(doc.paths).length} paths.
    </p>
  );
}
