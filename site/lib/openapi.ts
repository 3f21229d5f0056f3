// Reads the daemon's OpenAPI document at build time (server components only).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, unknown> };
}

export const openApiPath = path.join(process.cwd(), '..', 'daemon', 'openapi.json');

export function loadOpenApi(file: string = openApiPath): OpenApiDocument | null {
  if (!existsSync(file)) return null;
  return JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument;
}
