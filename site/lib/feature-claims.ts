// Finds text that calls a built feature (content/built-features.ts) planned or not built yet. A
// claim is judged within one unit of text: a sentence of an MDX paragraph, a whole `<Card>` (its
// title names the feature, its text may say "Planned"), a table row, a heading, or one line of a
// site or dashboard source file (a string or JSX text).
import {
  type BuiltFeature,
  builtFeatures,
  notBuiltWords,
  notClaims,
} from '@content/built-features';

export interface Claim {
  readonly feature: string;
  /** Where: `file:line`. */
  readonly at: string;
  readonly text: string;
}

interface Unit {
  readonly line: number;
  readonly text: string;
}

/** The units of an MDX page, each with the line it starts on. */
export function mdxUnits(source: string): Unit[] {
  const units: Unit[] = [];
  const lines = source.split('\n');
  let block: string[] = [];
  let start = 0;
  const flush = () => {
    const text = block.join('\n');
    block = [];
    if (text.trim() === '') return;
    if (/<Card\s/.test(text)) {
      // One unit per card, from its opening tag to the next (a `<Cards>` line may come first).
      let card: Unit | null = null;
      text.split('\n').forEach((row, offset) => {
        if (/<Card\s/.test(row)) {
          if (card) units.push(card);
          card = { line: start + 1 + offset, text: row };
        } else if (card) {
          card = { line: card.line, text: `${card.text}\n${row}` };
        }
      });
      if (card) units.push(card);
      return;
    }
    let offset = 0;
    for (const row of text.split('\n')) {
      if (/^\s*(\||#)/.test(row)) units.push({ line: start + 1 + offset, text: row });
      offset++;
    }
    const prose = text
      .split('\n')
      .filter((row) => !/^\s*(\||#)/.test(row))
      .join(' ');
    for (const sentence of prose.split(/(?<=[.!?])\s+/)) {
      if (sentence.trim() !== '') units.push({ line: start + 1, text: sentence });
    }
  };
  lines.forEach((line, i) => {
    if (line.trim() === '') {
      flush();
      start = i + 1;
    } else {
      if (block.length === 0) start = i;
      block.push(line);
    }
  });
  flush();
  return units;
}

/** The units of a source file: its lines. */
export function lineUnits(source: string): Unit[] {
  return source.split('\n').map((text, i) => ({ line: i + 1, text }));
}

/** Each unit that says "planned"/"not built yet" and names a built feature. */
export function notBuiltClaims(
  file: string,
  units: Unit[],
  features: readonly BuiltFeature[] = builtFeatures,
): Claim[] {
  const claims: Claim[] = [];
  for (const unit of units) {
    if (!notBuiltWords.test(unit.text)) continue;
    if (notClaims.some((n) => unit.text.includes(n.text))) continue;
    for (const feature of features) {
      if (feature.terms.test(unit.text)) {
        claims.push({ feature: feature.name, at: `${file}:${unit.line}`, text: unit.text.trim() });
      }
    }
  }
  return claims;
}
