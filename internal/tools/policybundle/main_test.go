package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestBundlesCurrent: each bundle under policies/ is what make generate
// writes from the core, so that a change of the core reaches every engine.
func TestBundlesCurrent(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	src, err := os.ReadFile(filepath.Join(root, core))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range engines {
		want, err := bundle(src, e.name, e.pkg)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(root, e.file))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not what make generate writes from %s: run make generate and commit", e.file, core)
		}
	}
}
