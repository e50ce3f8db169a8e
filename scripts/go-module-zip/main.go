// Command go-module-zip writes a Go module's files as a module proxy serves them (the layout GOPROXY reads:
// <escaped module path>/@v/list, <version>.info, <version>.mod, <version>.zip), using golang.org/x/mod/zip, the
// package the go command itself checks module zips with: the same exclusions, size limits and path rules.
//
//	go run . <module dir> <module path> <version> <RFC 3339 time> <out dir>
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

func main() {
	if len(os.Args) != 6 {
		fmt.Fprintln(os.Stderr, "usage: go-module-zip <module dir> <module path> <version> <RFC 3339 time> <out dir>")
		os.Exit(2)
	}
	if err := write(os.Args[1], os.Args[2], os.Args[3], os.Args[4], os.Args[5]); err != nil {
		fmt.Fprintln(os.Stderr, "go-module-zip:", err)
		os.Exit(1)
	}
}

func write(dir, path, version, at, out string) error {
	mv := module.Version{Path: path, Version: version}
	if err := module.Check(path, version); err != nil {
		return err
	}
	when, err := time.Parse(time.RFC3339, at)
	if err != nil {
		return err
	}
	escaped, err := module.EscapePath(path)
	if err != nil {
		return err
	}
	vdir := filepath.Join(out, filepath.FromSlash(escaped), "@v")
	if err := os.MkdirAll(vdir, 0o755); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(vdir, version+".zip"))
	if err != nil {
		return err
	}
	if err := zip.CreateFromDir(f, mv, dir); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(vdir, version+".mod"), mod, 0o644); err != nil {
		return err
	}
	info, err := json.Marshal(struct {
		Version string
		Time    time.Time
	}{version, when.UTC()})
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(vdir, version+".info"), info, 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(vdir, "list"), []byte(version+"\n"), 0o644)
}
