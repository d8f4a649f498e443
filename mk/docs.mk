# The docs: every tracked file's references (paths, sections quoted after
# a file name, anchors, Markdown links) name something the repository has,
# so a reader can follow each one (docs/tools/check-refs.mjs, and its own
# tests).

TEST_TARGETS += test-docs

.PHONY: test-docs
test-docs:
	node docs/tools/check-refs.mjs
	node --test docs/tools/check-refs.test.mjs
