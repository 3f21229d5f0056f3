// Import circles: the strongly connected components of a module graph (Tarjan), each with one
// readable cycle through it (for scripts/structure/check-structure.mjs).

/**
 * The strongly connected components of a graph (Map<node, Set<node>>) with more than one node:
 * their members, and one cycle through them (a readable example of the circle).
 */
export function findCycles(edges) {
  let index = 0;
  const indices = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const nodes = [...new Set([...edges.keys(), ...[...edges.values()].flatMap((s) => [...s])])];
  const connect = (v) => {
    // Iterative Tarjan (deep module chains must not overflow the call stack).
    const work = [[v, [...(edges.get(v) ?? [])], 0]];
    indices.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [node, next] = frame;
      if (frame[2] < next.length) {
        const w = next[frame[2]++];
        if (!indices.has(w)) {
          indices.set(w, index);
          low.set(w, index);
          index++;
          stack.push(w);
          onStack.add(w);
          work.push([w, [...(edges.get(w) ?? [])], 0]);
        } else if (onStack.has(w)) {
          low.set(node, Math.min(low.get(node), indices.get(w)));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === indices.get(node)) {
        const component = [];
        let w;
        do {
          w = stack.pop();
          onStack.delete(w);
          component.push(w);
        } while (w !== node);
        if (component.length > 1) components.push(component);
      }
    }
  };
  for (const v of nodes) if (!indices.has(v)) connect(v);
  return components.map((component) => ({
    members: [...component].sort(),
    cycle: cycleThrough(edges, new Set(component)),
  }));
}

/** A shortest cycle inside `members`, starting from its smallest node (for stable output). */
function cycleThrough(edges, members) {
  const start = [...members].sort()[0];
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift();
    for (const w of edges.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [v];
        for (let p = previous.get(v); p !== null; p = previous.get(p)) path.unshift(p);
        return [...path, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [...members, start];
}
