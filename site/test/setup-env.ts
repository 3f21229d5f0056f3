// Mirrors next.config.ts for code under test: the export uses trailing slashes.
process.env.__NEXT_TRAILING_SLASH = 'true';

// jsdom does not lay out pages, so it has no scrollIntoView; the components only call it.
if (typeof Element !== 'undefined' && !Element.prototype.scrollIntoView) {
  Element.prototype.scrollIntoView = () => {};
}
