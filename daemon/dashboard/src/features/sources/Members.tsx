/** A group's members as chips. */
export function Members({ names }: { names: readonly string[] }) {
  if (names.length === 0) return <p className="card-meta">No members yet.</p>;
  return (
    <ul className="members-list" aria-label="Members">
      {names.map((n) => (
        <li key={n} className="member">
          {n}
        </li>
      ))}
    </ul>
  );
}
