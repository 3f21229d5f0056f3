// Mirrors next.config.ts for code under test: the export uses trailing slashes.
process.env.__NEXT_TRAILING_SLASH = 'true';
