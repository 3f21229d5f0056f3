// The API's `details[]` placed next to the fields they name: `rtp.port` goes to the RTP port
// field, `group_members[2]` to the members list; the rest is shown above the form.
import type { Problem } from '../api/schema';

export interface PlacedProblems {
  /** Field key -> what is wrong with it, in the API's words without the path. */
  readonly byField: Readonly<Record<string, string[]>>;
  /** Problems no field of the form shows (full messages). */
  readonly other: readonly string[];
}

/** The rule and value of a problem without its path: "must be <= 1 (got 1.5)". */
export function withoutPath(problem: Problem): string {
  return problem.path && problem.message.startsWith(`${problem.path} `)
    ? problem.message.slice(problem.path.length + 1)
    : problem.message;
}

export function placeProblems(
  details: readonly Problem[],
  fields: readonly string[],
): PlacedProblems {
  const byField: Record<string, string[]> = {};
  const other: string[] = [];
  // Longest keys first, so `rtp.port` wins over a hypothetical `rtp`.
  const keys = [...fields].sort((a, b) => b.length - a.length);
  for (const problem of details) {
    const key = keys.find(
      (k) =>
        problem.path === k || problem.path.startsWith(`${k}.`) || problem.path.startsWith(`${k}[`),
    );
    if (key === undefined) other.push(problem.message);
    else byField[key] = [...(byField[key] ?? []), withoutPath(problem)];
  }
  return { byField, other };
}
