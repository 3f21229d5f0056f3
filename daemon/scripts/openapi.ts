// npm run openapi -w @tributary/daemon: writes daemon/openapi.json from the route and entity schemas.
// test/openapi.test.ts fails when the committed file is stale.
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { openapiText } from '../src/openapi-document.js';

const target = fileURLToPath(new URL('../openapi.json', import.meta.url));
await writeFile(target, await openapiText());
console.log(`wrote ${target}`);
