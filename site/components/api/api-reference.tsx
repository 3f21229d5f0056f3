import { H3 } from '@/components/mdx/heading';
import {
  type Field,
  loadOpenApi,
  type OpenApiDocument,
  type Operation,
  operationGroups,
  schemaDocs,
} from '@/lib/openapi';
import { FieldTable, TypeText } from './field-table';
import { OpenLinkedDetails } from './open-linked-details';

/**
 * The API reference, generated at build time from daemon/openapi.json: one section per tag with
 * every operation (parameters, body, responses), then every schema's fields with their rules.
 * Operations and schemas are native <details>, so the page needs no script and stays searchable.
 */
export function ApiReference({ document }: { document?: OpenApiDocument | null } = {}) {
  const doc = document === undefined ? loadOpenApi() : document;
  if (!doc) {
    return (
      <div className="callout callout-warning" role="note">
        <p className="callout-title">API reference not generated</p>
        <p>
          This reference is generated from the daemon&apos;s OpenAPI document,{' '}
          <code>daemon/openapi.json</code>, which was not present when this site was built.
        </p>
      </div>
    );
  }
  const schemaNames = new Set(Object.keys(doc.components?.schemas ?? {}));
  return (
    <div className="api-reference">
      <OpenLinkedDetails />
      <p className="api-source">
        Generated from <code>daemon/openapi.json</code>: {doc.info.title} {doc.info.version},
        OpenAPI {doc.openapi}.
      </p>
      {operationGroups(doc).map((group) => (
        <section key={group.tag} aria-labelledby={`api-${slug(group.tag)}`}>
          <H3 id={`api-${slug(group.tag)}`}>{group.tag}</H3>
          {group.description ? <p>{group.description}</p> : null}
          {group.operations.length === 0 ? <p>No endpoints in this version.</p> : null}
          {group.operations.map((op) => (
            <OperationView key={op.id} op={op} schemaNames={schemaNames} />
          ))}
        </section>
      ))}
      <section aria-labelledby="api-schemas">
        <H3 id="api-schemas">Schemas</H3>
        <p>Every object the API accepts or returns, with each field&apos;s type and rules.</p>
        {schemaDocs(doc).map((schema) => (
          <details key={schema.name} id={`schema-${schema.name}`} className="api-operation">
            <summary>
              <code>{schema.name}</code>
            </summary>
            {schema.description ? <p>{schema.description}</p> : null}
            <FieldTable fields={schema.fields} schemaNames={schemaNames} caption={schema.name} />
          </details>
        ))}
      </section>
    </div>
  );
}

function OperationView({ op, schemaNames }: { op: Operation; schemaNames: Set<string> }) {
  const fields: Field[] = op.parameters;
  return (
    <details id={`op-${op.id}`} className="api-operation">
      <summary>
        <span className="http-method">{op.method}</span> <code>{op.path}</code>{' '}
        <span className="api-summary">{op.summary}</span>
      </summary>
      {op.description ? <p>{op.description}</p> : null}
      {fields.length > 0 ? (
        <FieldTable fields={fields} schemaNames={schemaNames} caption="Parameters" withLocation />
      ) : null}
      {op.body ? (
        <p>
          Body{op.body.required ? '' : ' (optional)'}:{' '}
          <TypeText type={op.body.type} schemaNames={schemaNames} />
        </p>
      ) : null}
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">Responses</caption>
          <thead>
            <tr>
              <th scope="col">Status</th>
              <th scope="col">Answer</th>
              <th scope="col">When</th>
            </tr>
          </thead>
          <tbody>
            {op.responses.map((response) => (
              <tr key={response.status}>
                <td>
                  <code>{response.status}</code>
                </td>
                <td>
                  {response.type ? (
                    <TypeText type={response.type} schemaNames={schemaNames} />
                  ) : (
                    'empty'
                  )}
                </td>
                <td>{response.description}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}
