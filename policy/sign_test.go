package policy_test

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/testing/needs"
	"github.com/kokua-policy/kokua-policy/internal/testing/tampered"
	"github.com/kokua-policy/kokua-policy/policy"
)

// fixedKey is a key made from a fixed seed, so that signed bytes are the
// same run to run (Ed25519 signatures are deterministic).
func fixedKey(seed byte) (ed25519.PublicKey, ed25519.PrivateKey) {
	return fixedSeed(bytes.Repeat([]byte{seed}, ed25519.SeedSize))
}

// signedShipped is the shipped policy signed with priv.
func signedShipped(t *testing.T, priv ed25519.PrivateKey) ([]byte, []byte) {
	t.Helper()
	p, err := policy.Parse("shipped", shippedPolicy(t))
	if err != nil {
		t.Fatal(err)
	}
	unsigned, err := policy.Marshal(p.Document())
	if err != nil {
		t.Fatal(err)
	}
	signed, err := policy.MarshalSigned(p.Document(), priv)
	if err != nil {
		t.Fatal(err)
	}
	return unsigned, signed
}

// TestSignedPolicy: a signed policy verifies with its key, loads as any
// policy for a host that does not verify, and keeps the digest of the
// same policy unsigned: the signature is outside the canonical form.
func TestSignedPolicy(t *testing.T) {
	pub, priv := fixedKey(1)
	unsigned, signed := signedShipped(t, priv)
	if !bytes.Equal(unsigned, shippedPolicy(t)) {
		t.Fatal("Marshal of the loaded shipped policy is not its golden bytes")
	}
	p, err := policy.ParseVerified("signed", signed, pub)
	if err != nil {
		t.Fatalf("a signed policy does not verify with its key: %v", err)
	}
	if sig := p.Document().Signature; sig == nil || sig.KeyID != policy.KeyID(pub) {
		t.Errorf("signature %+v, want key %s", sig, policy.KeyID(pub))
	}
	plain, err := policy.Parse("signed", signed)
	if err != nil {
		t.Fatalf("a host that does not verify refuses a signed policy: %v", err)
	}
	digest, _ := policy.DigestOf(unsigned)
	if plain.Document().Digest != digest {
		t.Errorf("signing changed the digest: %s, want %s", plain.Document().Digest, digest)
	}
	// The signature is the last member, after the digest.
	if !bytes.Contains(signed, []byte(`"digest": "`+digest+`",`+"\n"+`  "signature": {`)) {
		t.Errorf("the signature does not follow the digest:\n%s", signed[len(signed)-300:])
	}
	// Written out and read back, with LoadVerified.
	path := filepath.Join(t.TempDir(), "policy.json")
	if err := os.WriteFile(path, signed, 0o644); err != nil {
		t.Fatal(err)
	}
	if loaded, err := policy.LoadVerified(path, pub); err != nil || loaded == nil || loaded.Document().Digest != digest {
		t.Errorf("LoadVerified: %v, a policy %v, want the one of digest %s", err, loaded != nil, digest)
	}
}

// TestSignatureRefusals: a host that verifies refuses, with ErrSignature
// and the reason, an unsigned policy, one signed by another key, one
// whose signature was altered, and one whose content was changed and
// sealed again with a new digest (which a digest alone cannot catch);
// a malformed signature member is a shape error whether or not the host
// verifies.
func TestSignatureRefusals(t *testing.T) {
	pub, priv := fixedKey(1)
	otherPub, otherPriv := fixedKey(2)
	unsigned, signed := signedShipped(t, priv)
	_, signedByOther := signedShipped(t, otherPriv)
	resealed, err := tampered.Resealed(signed, func(d map[string]any) {
		d["auto_approval"].(map[string]any)["enabled"] = true
		d["floor"].(map[string]any)["active"] = true
	})
	if err != nil {
		t.Fatal(err)
	}
	// The signature member is outside the digest: changing it alone keeps
	// the digest valid.
	withSignature := func(sig any) []byte {
		var d map[string]any
		if err := json.Unmarshal(signed, &d); err != nil {
			t.Fatal(err)
		}
		d["signature"] = sig
		out, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	_, after, _ := strings.Cut(string(signed), `"ed25519": "`)
	sig, _, _ := strings.Cut(after, `"`)
	raw, err := base64.StdEncoding.DecodeString(sig)
	if err != nil {
		t.Fatal(err)
	}
	raw[10] ^= 1
	flipped := withSignature(map[string]any{"ed25519": base64.StdEncoding.EncodeToString(raw), "key_id": policy.KeyID(pub)})
	cases := []struct {
		name   string
		data   []byte
		key    ed25519.PublicKey
		kind   error
		reason string
	}{
		{"unsigned", unsigned, pub, policy.ErrSignature, "it is not signed"},
		{"another key", signedByOther, pub, policy.ErrSignature, "it is signed by key " + policy.KeyID(otherPub) + ", not by the verify key " + policy.KeyID(pub)},
		{"altered signature", flipped, pub, policy.ErrSignature, "its signature does not verify"},
		{"changed and sealed again", resealed, pub, policy.ErrSignature, "its signature does not verify"},
		{"changed, digest kept", bytes.Replace(signed, []byte(`"enabled": false`), []byte(`"enabled": true`), 1), pub,
			policy.ErrTampered, "its digest does not match"},
		{"not a key", signed, ed25519.PublicKey{1, 2, 3}, policy.ErrSignature, "not an Ed25519 public key"},
		{"signature null", withSignature(nil), nil, policy.ErrShape, "its signature member is not"},
		{"signature empty", withSignature(map[string]any{}), nil, policy.ErrShape, "its signature member is not"},
		{"signature null, verified", withSignature(nil), pub, policy.ErrSignature, "its signature member is not"},
		{"signature with another member", bytes.Replace(signed, []byte(`"signature": {`), []byte(`"signature": {"by": "me", `), 1), nil,
			policy.ErrShape, "it does not have the policy's shape"},
		{"signature repeated", bytes.Replace(signed, []byte(`"signature": {`), []byte(`"signature": 1, "signature": {`), 1), nil,
			policy.ErrShape, `"signature" is repeated`},
		{"signature not base64", bytes.Replace(signed, []byte(`"ed25519": "`), []byte(`"ed25519": "!`), 1), nil,
			policy.ErrShape, "not 64 bytes of standard base64"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			if c.key != nil {
				_, err = policy.ParseVerified(c.name, c.data, c.key)
			} else {
				_, err = policy.Parse(c.name, c.data)
			}
			if !errors.Is(err, c.kind) || !strings.Contains(err.Error(), c.reason) {
				t.Errorf("refused with %v, want %v saying %q", err, c.kind, c.reason)
			}
		})
	}
}

// TestKeyFiles: keys round-trip through their PEM files, a file of the
// other kind or of another algorithm is refused, and a key OpenSSL made
// reads (when openssl is installed).
func TestKeyFiles(t *testing.T) {
	pub, priv := fixedKey(3)
	privPEM, err := policy.EncodePrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	pubPEM, err := policy.EncodePublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(privPEM, []byte("-----BEGIN PRIVATE KEY-----\n")) || !bytes.HasPrefix(pubPEM, []byte("-----BEGIN PUBLIC KEY-----\n")) {
		t.Errorf("PEM blocks:\n%s%s", privPEM, pubPEM)
	}
	if k, err := policy.ParsePrivateKey(privPEM); err != nil || !k.Equal(priv) {
		t.Errorf("private key round trip: %v", err)
	}
	if k, err := policy.ParsePublicKey(pubPEM); err != nil || !k.Equal(pub) {
		t.Errorf("public key round trip: %v", err)
	}
	if _, err := policy.ParsePublicKey(privPEM); err == nil || !strings.Contains(err.Error(), `a PEM "PRIVATE KEY" block, not "PUBLIC KEY": this is a private key; give its public key`) {
		t.Errorf("a private key read as a public one: %v", err)
	}
	if _, err := policy.ParsePrivateKey([]byte("ed25519 AAAA")); err == nil || !strings.Contains(err.Error(), "not a PEM file") {
		t.Errorf("not PEM: %v", err)
	}
	if _, err := policy.ParsePublicKey(append(bytes.Clone(pubPEM), pubPEM...)); err == nil {
		t.Error("two PEM blocks were read as one key")
	}
	openssl := needs.Program(t, "openssl", "apt-get install openssl (.ci/run does under CI=true)")
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "key.pem")
	if out, err := exec.Command(openssl, "genpkey", "-algorithm", "ed25519", "-out", keyFile).CombinedOutput(); err != nil {
		needs.Missing(t, fmt.Sprintf("this openssl makes no Ed25519 key (%v: %s)", err, out), "OpenSSL 1.1.1 or later")
	}
	pubOut, err := exec.Command(openssl, "pkey", "-in", keyFile, "-pubout").Output()
	if err != nil {
		t.Fatal(err)
	}
	k, err := policy.ReadPrivateKey(keyFile)
	if err != nil {
		t.Fatalf("a key openssl made: %v", err)
	}
	p, err := policy.ParsePublicKey(pubOut)
	if err != nil || !p.Equal(k.Public()) {
		t.Errorf("openssl's public key: %v", err)
	}
}
