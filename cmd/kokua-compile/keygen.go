package main

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	urfave "github.com/urfave/cli/v3"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/compile"
	"github.com/kokua-policy/kokua-policy/internal/regular"
	"github.com/kokua-policy/kokua-policy/policy"
)

// keygenCommand is kokua-compile keygen: a new Ed25519 key pair for
// --sign and kokua-run --verify-key (docs/security.md).
func keygenCommand(stdout io.Writer) *urfave.Command {
	return &urfave.Command{
		Name:      "keygen",
		Usage:     "make an Ed25519 key pair to sign policies with: KEY (private, mode 0600) and KEY.pub",
		UsageText: "kokua-compile keygen KEY",
		Action: func(_ context.Context, c *urfave.Command) error {
			if c.NArg() != 1 {
				return usage("keygen: name the private key file to write; the public key goes to the same name with .pub")
			}
			return keygen(c.Args().First(), stdout)
		},
	}
}

// keygen writes a new key pair: the private key as PEM PKCS #8 to path,
// readable by its owner only, and the public key as PEM PKIX to
// path.pub. It replaces nothing: if either file exists, nothing is
// written.
func keygen(path string, stdout io.Writer) error {
	pubPath := path + ".pub"
	for _, p := range []string{path, pubPath} {
		if _, err := os.Lstat(p); err == nil {
			return usage("keygen: %s exists; a key is never overwritten, so remove it or name another file", p)
		}
	}
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return cli.Fail(cli.ExitInternal, "kokua-compile: keygen: %v", err)
	}
	privPEM, err := policy.EncodePrivateKey(priv)
	if err != nil {
		return cli.Fail(cli.ExitInternal, "kokua-compile: keygen: %v", err)
	}
	pubPEM, err := policy.EncodePublicKey(pub)
	if err != nil {
		return cli.Fail(cli.ExitInternal, "kokua-compile: keygen: %v", err)
	}
	if err := writeNew(path, privPEM, 0o600); err != nil {
		return cli.WriteFailed("kokua-compile: keygen", fmt.Errorf("cannot write %s: %w", path, unwrapPath(err)))
	}
	if err := writeNew(pubPath, pubPEM, 0o644); err != nil {
		_ = os.Remove(path)
		return cli.WriteFailed("kokua-compile: keygen", fmt.Errorf("cannot write %s: %w; %s was removed", pubPath, unwrapPath(err), path))
	}
	_, err = fmt.Fprintf(stdout, "%s: private key (keep it secret; kokua-compile --sign %s)\n%s: public key %s (kokua-run --verify-key %s)\n",
		path, path, pubPath, policy.KeyID(pub), pubPath)
	if err != nil {
		return cli.WriteFailed("kokua-compile: keygen", fmt.Errorf("cannot write to standard output (%w); the keys were written: %s and %s", err, path, pubPath))
	}
	return nil
}

// writeNew writes a file that must not exist yet, with the given mode
// whatever the umask.
func writeNew(path string, data []byte, mode fs.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s exists; a key is never overwritten", path)
	}
	if err != nil {
		return err
	}
	for _, step := range []func() error{
		func() error { return f.Chmod(mode) },
		func() error { _, err := f.Write(data); return err },
		f.Sync,
	} {
		if err := step(); err != nil {
			_ = f.Close()
			_ = os.Remove(path)
			return err
		}
	}
	return f.Close()
}

// signingKey reads the private key file of --sign, or gives nil without
// one. kokua-compile reads it before it lints the config, so that a key
// it cannot use ends the command at once, before any finding is printed.
func signingKey(path string) (ed25519.PrivateKey, error) {
	if path == "" {
		return nil, nil
	}
	if err := regular.Stat(path); errors.Is(err, regular.ErrNotRegular) {
		return nil, usage("--sign: cannot read %s: %v", path, err)
	}
	k, err := policy.ReadPrivateKey(path)
	if err != nil {
		return nil, usage("--sign: %v", err)
	}
	return k, nil
}

// seal writes the compiled document as -o and --check want it, signed
// with key when it is not nil, and refuses one no runtime would load.
func seal(o compileOptions, key ed25519.PrivateKey, doc *policy.Document) ([]byte, error) {
	out, err := compile.Write(doc, key)
	if err != nil {
		return nil, cli.Fail(cli.ExitFindings, "kokua-compile: %s: %v; nothing was written", o.config, err)
	}
	return out, nil
}
