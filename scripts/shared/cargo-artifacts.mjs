// Cargo's JSON messages for a build (`--message-format=json-render-diagnostics`: compiler
// errors still print as text on stderr), and the test programs among them. What the native
// suite's runner and the masked SIMD run both read to find the programs `cargo test --no-run`
// built, without compiling anything twice.
import { spawnSync } from 'node:child_process';
import { dirname, relative } from 'node:path';

/**
 * Runs `cargo ARGS --message-format=json-render-diagnostics` in `root` (its progress and errors
 * on this process's stderr) and returns the parsed messages; exits with cargo's status when it
 * fails.
 */
export function cargoMessages(args, root) {
  const r = spawnSync('cargo', [...args, '--message-format=json-render-diagnostics'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.error) throw r.error;
  if (r.status !== 0) {
    console.error(`cargo ${args.join(' ')} failed (exit ${r.status})`);
    process.exit(r.status ?? 1);
  }
  return r.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));
}

/**
 * The test programs among `messages`: { crate (its folder from `root`), target (`lib` for a
 * library's unit tests, `main` for a binary's, else the test file's name), kind, source (the
 * target's source file from the crate folder, as cargo's `Running` line names it), executable }.
 */
export function testPrograms(messages, root) {
  return messages
    .filter((m) => m.reason === 'compiler-artifact' && m.executable && m.profile?.test)
    .map((m) => {
      const kind = m.target.kind[0];
      const crateDir = dirname(m.manifest_path);
      return {
        crate: relative(root, crateDir),
        target: kind === 'lib' ? 'lib' : kind === 'bin' ? `bin ${m.target.name}` : m.target.name,
        kind,
        source: relative(crateDir, m.target.src_path),
        executable: m.executable,
      };
    });
}
