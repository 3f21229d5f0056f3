import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { render, screen, within } from '@testing-library/react';
import { ApiReference } from '@/components/api/api-reference';
import {
  loadOpenApi,
  type OpenApiDocument,
  operationGroups,
  ruleLabels,
  schemaDocs,
  typeLabel,
} from '@/lib/openapi';

// A trimmed copy of a daemon/openapi.json (three paths, five schemas).
const fixturePath = path.join(__dirname, 'fixtures', 'openapi.json');
const fixture = JSON.parse(readFileSync(fixturePath, 'utf8')) as OpenApiDocument;

describe('reading the OpenAPI document', () => {
  test('loads a document and reports a missing one as null', () => {
    expect(loadOpenApi(fixturePath)?.info.title).toBe('Tributary API');
    expect(loadOpenApi(path.join(__dirname, 'no-such-openapi.json'))).toBeNull();
  });

  test('groups operations by tag in the document order, keeping empty tags', () => {
    const groups = operationGroups(fixture);
    expect(groups.map((g) => [g.tag, g.operations.length])).toEqual([
      ['Sinks', 3],
      ['Streaming', 0],
      ['System', 1],
    ]);
    const volume = groups[0]?.operations.find((op) => op.path.endsWith('{volume}'));
    expect(volume?.method).toBe('GET');
    expect(volume?.parameters.map((p) => [p.name, p.in, p.type, p.rules])).toEqual([
      ['name', 'path', 'string', []],
      ['volume', 'path', 'number', ['0 to 1']],
    ]);
    expect(volume?.responses.map((r) => r.status)).toEqual([
      '200',
      '400',
      '401',
      '404',
      '500',
      '503',
    ]);
    const add = groups[0]?.operations.find((op) => op.method === 'POST');
    expect(add?.body).toEqual({ type: 'SinkInput', required: true });
  });

  test('describes types and rules the way readers need them', () => {
    expect(typeLabel({ type: ['integer', 'null'] })).toBe('integer | null');
    expect(typeLabel({ type: 'integer', enum: [16, 24, 32] })).toBe('16 | 24 | 32');
    expect(typeLabel({ type: 'array', items: { $ref: '#/components/schemas/Sink' } })).toBe(
      'Sink[]',
    );
    expect(typeLabel({ type: 'string', format: 'uuid' })).toBe('string (uuid)');
    expect(typeLabel({ anyOf: [{ type: 'string' }, { type: 'null' }] })).toBe('string | null');
    expect(ruleLabels({ minimum: 0, maximum: 5000, default: 0 })).toEqual([
      '0 to 5000',
      'default 0',
    ]);
    expect(ruleLabels({ minLength: 1, maxLength: 64, 'x-rule': '1 to 64 characters' })).toEqual([
      '1 to 64 characters',
    ]);
    expect(ruleLabels({ type: 'array', uniqueItems: true, default: [] })).toEqual([
      'no duplicates',
      'default []',
    ]);
  });

  test('lists every field of every schema with its bounds', () => {
    const sink = schemaDocs(fixture).find((s) => s.name === 'Sink');
    const volume = sink?.fields.find((f) => f.name === 'volume');
    expect(volume).toMatchObject({
      type: 'number',
      required: true,
      rules: ['0 to 1', 'default 1'],
    });
    const rate = sink?.fields.find((f) => f.name === 'sample_rate');
    expect(rate?.type).toBe('44100 | 48000 | 88200 | 96000 | 192000');
  });
});

describe('<ApiReference>', () => {
  test('renders every operation and schema of the document', () => {
    render(<ApiReference document={fixture} />);
    expect(screen.getByText(/Tributary API 0.0.0-fixture/)).toBeTruthy();
    for (const name of ['Sinks', 'Streaming', 'System', 'Schemas']) {
      expect(screen.getByRole('heading', { level: 3, name })).toBeTruthy();
    }
    const volume = document.getElementById('op-setVolumeOfSink');
    expect(volume?.tagName).toBe('DETAILS');
    expect(volume?.textContent).toContain('/sinks/{name}/volume/{volume}');
    expect(screen.getByText('No endpoints in this version.')).toBeTruthy();
    const sink = document.getElementById('schema-Sink') as HTMLElement;
    const row = within(sink).getByText('sample_rate').closest('tr') as HTMLElement;
    expect(row.textContent).toContain('44100 | 48000 | 88200 | 96000 | 192000');
    // Schema names in types link to their entries.
    const link = within(document.getElementById('op-addSink') as HTMLElement).getByRole('link', {
      name: 'SinkInput',
    });
    expect(link.getAttribute('href')).toBe('#schema-SinkInput');
    expect(document.getElementById('schema-SinkInput')).not.toBeNull();
  });

  test('says plainly when the document is missing', () => {
    render(<ApiReference document={null} />);
    expect(screen.getByText('API reference not generated')).toBeTruthy();
  });
});
