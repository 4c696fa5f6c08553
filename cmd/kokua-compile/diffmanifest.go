package main

import (
	"fmt"

	urfave "github.com/urfave/cli/v3"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/lint"
)

// baseManifestFlag is diff's --base-manifest FILE: the manifest the old
// side is compiled against.
func baseManifestFlag() *urfave.StringFlag {
	return &urfave.StringFlag{Name: "base-manifest", Local: true,
		Usage: "compile the old side against the registry manifest `FILE` (default: with --base, --manifest as it is at REF; otherwise --manifest)"}
}

// sideManifests are the manifests the two sides are compiled against,
// each its own, so that a change to the manifest is graded with the rest:
//
//   - --base-manifest FILE, when given, is the old side's (with or
//     without --base); it applies to a config, and a compiled policy
//     refuses it, since a policy carries the classes it was compiled with;
//   - otherwise, with --base REF and --manifest FILE, the old side's is
//     FILE as it is at REF (gitShow), when git tracks it there; when it
//     does not, the old side is compiled against the new side's, and the
//     note returned says so (the report's headline repeats it);
//   - otherwise both sides use the same: --manifest, or the embedded
//     default install.
//
// The new side's is always --manifest, or the embedded default install.
func sideManifests(manifest, baseManifest, base string, oldSrc lint.Source) (oldM, newM *lint.Manifest, note string, err error) {
	if newM, err = cli.Manifest(manifest); err != nil {
		return nil, nil, "", usage("%v", err)
	}
	switch {
	case baseManifest != "":
		if diff.IsPolicy(oldSrc.Data) {
			return nil, nil, "", usage("--base-manifest compiles the old side, and %s is a compiled policy, which carries the classes it was compiled with: leave the flag out", oldSrc.Name)
		}
		if oldM, err = cli.Manifest(baseManifest); err != nil {
			return nil, nil, "", usage("%v", err)
		}
		return oldM, newM, "", nil
	case base != "" && manifest != "":
		if !gitTracked(base, manifest) {
			return newM, newM, fmt.Sprintf("the manifest %s is not tracked at %s, so the old side is graded with the new side's", manifest, shortRev(base)), nil
		}
		src, err := gitShow(base, manifest)
		if err != nil {
			return nil, nil, "", usage("%v", err)
		}
		return lint.LoadManifest(src), newM, "", nil
	}
	return newM, newM, "", nil
}
