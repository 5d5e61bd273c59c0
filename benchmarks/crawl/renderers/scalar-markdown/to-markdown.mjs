// The crawl benchmark's scalar-markdown renderer, first step (scripts/render_pages.py render_scalar_markdown):
// Scalar's openapi-to-markdown writes the spec (argv[2], JSON or YAML, OpenAPI 3 or Swagger 2) as one Markdown
// document (argv[3]), defaults throughout.
import { readFileSync, writeFileSync } from 'node:fs'
import { createMarkdownFromOpenApi } from '@scalar/openapi-to-markdown'

const markdown = await createMarkdownFromOpenApi(readFileSync(process.argv[2], 'utf8'))
writeFileSync(process.argv[3], markdown)
