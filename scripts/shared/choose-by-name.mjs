// What `npm test -- NAME` and `npm run bench -- NAME` share: the items whose name contains any of
// the words given, all of them when none is; an unknown word stops the script (exit 2) listing
// the names.
export function chooseByName(items, filters, noun) {
  const chosen = filters.length
    ? items.filter((item) => filters.some((f) => item.name.includes(f)))
    : items;
  if (chosen.length === 0) {
    console.error(
      `no ${noun} matches ${filters.join(' ')}; ${noun}s: ${items.map((i) => i.name).join(', ')}`,
    );
    process.exit(2);
  }
  return chosen;
}
