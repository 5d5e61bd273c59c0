// The crawl benchmark's scalar-markdown renderer, second step: Eleventy builds the Markdown page with its default
// Markdown engine (markdown-it) into a layout holding only the page's title and content. Markdown is not
// preprocessed as a template (an API's "{{id}}" stays text).
export default function () {
  return { markdownTemplateEngine: false, htmlTemplateEngine: false }
}
