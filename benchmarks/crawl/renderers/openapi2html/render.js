// openapi2html's page for one Swagger 2.0 spec: the spec parsed by swagger-parser (no $ref resolved,
// nothing fetched), rendered by openapi2html's React components to static markup, wrapped in a page.
// Usage: node render.js SPEC.json OUT.html (after `npm ci` in this folder)
const fs = require('fs');
const SwaggerParser = require('@apidevtools/swagger-parser');
const openapi2html = require('openapi2html');

const escape = (text) => String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

(async () => {
  const [spec, out] = process.argv.slice(2);
  const api = await SwaggerParser.parse(spec, { resolve: { external: false } });
  const title = escape((api.info && api.info.title) || spec);
  const body = openapi2html(api);
  fs.writeFileSync(out, `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>${title}</title></head>\n<body>\n${body}\n</body></html>\n`);
})().catch((error) => {
  process.stderr.write(`${error && error.stack ? error.stack : error}\n`);
  process.exit(1);
});
