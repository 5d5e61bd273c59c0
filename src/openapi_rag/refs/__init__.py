"""`$ref` handling: JSON pointers, bundling of multi-file documents, the reference graph, inlining."""
