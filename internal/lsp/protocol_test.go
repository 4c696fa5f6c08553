package lsp

import "testing"

// TestNameOf: the file a document's URI names, and the folder of the
// workspace's root URI, as go.lsp.dev/uri read them when the server was
// built on it: percent escapes decoded, a Windows drive's leading slash
// dropped, a query cut (and a fragment too, but for the root, read as a
// request URI). A URI that is not a file's names the document by itself
// and gives no root, where go.lsp.dev/uri panicked.
func TestNameOf(t *testing.T) {
	for _, c := range []struct{ uri, name, root string }{
		{"file:///a/b.toml", "/a/b.toml", "/a/b.toml"},
		{"file:///a%20b/c%2Fd.toml", "/a b/c/d.toml", "/a b/c/d.toml"},
		{"file:///a%FFb", "/a\xffb", "/a\xffb"},
		{"file:", "file:", ""},
		{"file://", "file://", ""},
		{"file:///", "/", "/"},
		{"file://host/x", "/x", "/x"},
		{"file:///C:/x/y.toml", "C:/x/y.toml", "C:/x/y.toml"},
		{"file:///c%3A/x", "c:/x", "c:/x"},
		{"http://x/y", "http://x/y", ""},
		{"untitled:Untitled-1", "untitled:Untitled-1", ""},
		{"", "", ""},
		{"relative/x", "relative/x", ""},
		{"/abs/x", "/abs/x", ""},
		{"file:///a?q=1#f", "/a", "/a"},
		{"file:///a#b", "/a", "/a#b"},
		{"file:///%zz", "file:///%zz", ""},
		{"file:/x", "/x", "/x"},
		{"FILE:///x", "/x", "/x"},
		{"file:///a/../b", "/a/../b", "/a/../b"},
		{"file:///a b", "/a b", "/a b"},
		{"file:///é", "/é", "/é"},
	} {
		if got := nameOf(DocumentURI(c.uri)); got != c.name {
			t.Errorf("nameOf(%q) = %q, want %q", c.uri, got, c.name)
		}
		if got := rootPath(DocumentURI(c.uri)); got != c.root {
			t.Errorf("rootPath(%q) = %q, want %q", c.uri, got, c.root)
		}
	}
}
