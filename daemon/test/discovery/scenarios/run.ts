// Inside the namespace: runs one scenario module's default export and prints its result.
const name = process.argv[2];
if (!name || !/^[a-z-]+$/.test(name)) {
  console.error(`usage: run.ts SCENARIO (got ${name})`);
  process.exit(2);
}
const module = (await import(`./${name}.ts`)) as { default: () => Promise<unknown> };
try {
  const result = await module.default();
  console.log(`RESULT ${JSON.stringify(result)}`);
  process.exit(0);
} catch (err) {
  console.error((err as Error).stack ?? err);
  process.exit(1);
}
