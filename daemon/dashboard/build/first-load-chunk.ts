// One chunk for everything the first load needs. Rolldown otherwise splits the modules the entry
// shares with lazy chunks into many small shared chunks (noVNC's top-level await makes it keep
// their order that way): 15 files, each compressed on its own, about 5 KB more gzipped than the
// same code in one file. A module the entry reaches through static imports goes into `app`;
// what only lazy chunks reach stays lazy.

interface ModuleInfo {
  readonly isEntry: boolean;
  readonly importers: readonly string[];
}
interface ChunkingContext {
  getModuleInfo(id: string): ModuleInfo | null;
}

/** The codeSplitting group's name function: 'app' for a module of the first load. */
export function firstLoadChunk(): (id: string, ctx: ChunkingContext) => string | null {
  const reached = new Map<string, boolean>();
  const reaches = (id: string, ctx: ChunkingContext, path: Set<string>): boolean => {
    const known = reached.get(id);
    if (known !== undefined) return known;
    if (path.has(id)) return false;
    const info = ctx.getModuleInfo(id);
    if (!info) return false;
    path.add(id);
    const result = info.isEntry || info.importers.some((i) => reaches(i, ctx, path));
    path.delete(id);
    // A "no" found inside an import circle may turn "yes" from another side: remember only yes.
    if (result) reached.set(id, true);
    return result;
  };
  return (id, ctx) => (reaches(id, ctx, new Set()) ? 'app' : null);
}
