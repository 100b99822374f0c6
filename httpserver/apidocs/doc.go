// Package apidocs is the human API reference served at GET /docs: a small HTML page
// that renders the server's own OpenAPI document (GET /v1/openapi.json) with Redoc,
// whose standalone bundle is vendored here (vendor/, pinned by version and SHA-256)
// and embedded in the binary. Nothing is loaded from another origin: no CDN, no fonts.
//
// The page has one inline script (Redoc.init with the document's URL and the theme)
// and loads the bundle from this server (GET /docs/redoc-<version>.standalone.js) with
// a Subresource Integrity hash. Its Content-Security-Policy allows exactly that: the
// inline script by its SHA-256, scripts of its own origin, fetches to its own origin,
// and the style elements Redoc creates empty and fills through the CSSOM (allowed by
// the hash of the empty string), its one fixed stylesheet by hash, and no other inline
// style text. Redoc's "Redocly" footer logo, an image on cdn.redoc.ly, is refused:
// the page then shows the link without it. Redoc's search runs
// in a Worker that it builds from a blob: URL of code in the same bundle, which
// worker-src blob: allows. No framing, no forms, no base URI.
package apidocs
