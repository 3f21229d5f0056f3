import { Fragment } from 'react';
import type { Field } from '@/lib/openapi';

/** A type label whose schema names link to their entries in the Schemas section. */
export function TypeText({ type, schemaNames }: { type: string; schemaNames: Set<string> }) {
  const parts = type.split(/([A-Za-z][A-Za-z0-9]*)/);
  return (
    <code>
      {parts.map((part, index) =>
        schemaNames.has(part) ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the split of one fixed string
          <a key={index} href={`#schema-${part}`}>
            {part}
          </a>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the split of one fixed string
          <Fragment key={index}>{part}</Fragment>
        ),
      )}
    </code>
  );
}

export function FieldTable({
  fields,
  schemaNames,
  caption,
  withLocation = false,
}: {
  fields: Field[];
  schemaNames: Set<string>;
  caption: string;
  withLocation?: boolean;
}) {
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            {withLocation ? <th scope="col">In</th> : null}
            <th scope="col">Type</th>
            <th scope="col">Rules</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody>
          {fields.map((field) => (
            <tr key={`${field.in ?? ''}${field.name}`}>
              <td>
                <code>{field.name}</code>
                {field.required ? <span className="api-required"> required</span> : null}
              </td>
              {withLocation ? <td>{field.in}</td> : null}
              <td>
                <TypeText type={field.type} schemaNames={schemaNames} />
              </td>
              <td>{field.rules.join('; ')}</td>
              <td>{field.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
