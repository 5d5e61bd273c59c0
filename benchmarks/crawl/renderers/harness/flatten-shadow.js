// Serialize an element with its open shadow roots inlined (a slot becomes the nodes assigned to it):
// Chromium's --dump-dom writes the light DOM only, and web-component renderers (RapiDoc) draw the
// whole page inside shadow roots. Styles and scripts are left out; nothing else is changed.
function flattenShadow(node) {
  const escape = (text) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  if (node.nodeType === Node.TEXT_NODE) return escape(node.data);
  if (node.nodeType !== Node.ELEMENT_NODE) return "";
  const tag = node.localName;
  if (tag === "script" || tag === "style" || tag === "template") return "";
  let children;
  if (tag === "slot") {
    children = node.assignedNodes({ flatten: true });
    if (!children.length) children = Array.from(node.childNodes);
  } else {
    children = Array.from((node.shadowRoot || node).childNodes);
  }
  const attributes = Array.from(node.attributes)
    .filter((a) => a.name !== "style")
    .map((a) => ` ${a.name}="${a.value.replace(/&/g, "&amp;").replace(/"/g, "&quot;")}"`)
    .join("");
  if (["br", "hr", "img", "input", "meta", "link", "col", "wbr"].includes(tag)) return `<${tag}${attributes}>`;
  return `<${tag}${attributes}>${children.map(flattenShadow).join("")}</${tag}>`;
}
