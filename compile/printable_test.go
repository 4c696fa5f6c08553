package compile_test

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/kokua-policy/kokua-policy/compile"
	"github.com/kokua-policy/kokua-policy/internal/engine"
	"github.com/kokua-policy/kokua-policy/internal/testing/hostile"
	"github.com/kokua-policy/kokua-policy/internal/testing/policytest"
	"github.com/kokua-policy/kokua-policy/lint"
	"github.com/kokua-policy/kokua-policy/policy"
)

// unsafeAgents are agent names Kokua accepts whose characters
// encoding/json writes raw although a terminal acts on them or hides
// them: DEL, a C1 control (CSI), the right-to-left override, a
// left-to-right isolate and a no-break space. A name with ESC, CR and LF
// is there too, which encoding/json escapes by itself.
var unsafeAgents = []string{"d\x7f", "k\u009b", "r\u202e", "i\u2066", "n\u00a0b", "e\x1b7\r\n"}

// unsafeDoc compiles a config whose entry agent delegates to every one of
// unsafeAgents, each holding fs with fs.read_file under review.
func unsafeDoc(t *testing.T) *policy.Document {
	t.Helper()
	config := hostile.DelegatingConfig(unsafeAgents, "confirm = []\nreview = [\"fs.read_file\"]", `available = ["fs"]`)
	src := lint.Source{Name: "config\u202e.toml", Data: []byte(config)}
	m := lint.DefaultManifest()
	res := engine.Run(src, m)
	if res.HasErrors() || res.World == nil {
		t.Fatalf("the config has errors: %v", res.Diagnostics)
	}
	return engine.Compile(res.World, engine.Source{Name: src.Name, Data: src.Data}, engine.Source{Name: m.Source.Name, Data: m.Source.Data})
}

// TestWriteEscapesWhatATerminalActsOn (issue 13, Must 3 "nothing raw"):
// the policy Write gives kokua-compile to print or write carries none of
// DEL, C1 controls, bidirectional controls or invisible separators raw,
// although policy.Marshal does (encoding/json leaves them as they are);
// the escaped policy holds the same values, has the same canonical form
// and digest as the unescaped one, loads with policy.Load and, signed,
// verifies with policy.LoadVerified and the key read back from the files
// keygen writes, and with no other key.
func TestWriteEscapesWhatATerminalActsOn(t *testing.T) {
	dir := t.TempDir()
	privPEM, pubPEM := keyFiles(t, 7)
	keyPath, pubPath := filepath.Join(dir, "policy.key"), filepath.Join(dir, "policy.key.pub")
	for path, data := range map[string][]byte{keyPath: privPEM, pubPath: pubPEM} {
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	priv, err := policy.ReadPrivateKey(keyPath)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := policy.ReadPublicKey(pubPath)
	if err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		name string
		key  ed25519.PrivateKey
	}{{"unsigned", nil}, {"signed", priv}} {
		t.Run(c.name, func(t *testing.T) {
			doc := unsafeDoc(t)
			var plain []byte
			if c.key == nil {
				plain, err = policy.Marshal(doc)
			} else {
				plain, err = policy.MarshalSigned(doc, c.key)
			}
			if err != nil {
				t.Fatal(err)
			}
			// What the escaping is for: encoding/json writes them raw.
			if raw := hostile.Raw(plain); raw == "" {
				t.Fatal("policy.Marshal escapes every unsafe character itself: this test shows nothing")
			}
			out, err := compile.Write(doc, c.key)
			if err != nil {
				t.Fatal(err)
			}
			if raw := hostile.Raw(out); raw != "" {
				t.Errorf("Write leaves %s", raw)
			}
			for _, esc := range []string{`\u007f`, `\u009b`, `\u202e`, `\u2066`, `\u00a0`, `config\u202e.toml`} {
				if !bytes.Contains(out, []byte(esc)) {
					t.Errorf("Write does not write %s", esc)
				}
			}
			if !reflect.DeepEqual(policytest.Decoded(t, out), policytest.Decoded(t, plain)) {
				t.Error("the escaped policy does not decode to the values of the unescaped one")
			}
			canonOut, err := policy.Canonical(out)
			if err != nil {
				t.Fatal(err)
			}
			canonPlain, err := policy.Canonical(plain)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(canonOut, canonPlain) {
				t.Errorf("the canonical forms differ:\n%s\n%s", canonOut, canonPlain)
			}
			digestOut, _ := policy.DigestOf(out)
			digestPlain, _ := policy.DigestOf(plain)
			if digestOut != digestPlain || digestOut != doc.Digest {
				t.Errorf("digests: escaped %s, unescaped %s, recorded %s", digestOut, digestPlain, doc.Digest)
			}

			path := filepath.Join(t.TempDir(), "policy.json")
			if err := compile.WriteFile(path, out); err != nil {
				t.Fatal(err)
			}
			p, err := policy.Load(path)
			if err != nil {
				t.Fatalf("policy.Load refuses the escaped policy: %v", err)
			}
			if p.Document().Digest != digestPlain {
				t.Errorf("loaded digest %s, want %s", p.Document().Digest, digestPlain)
			}
			for _, n := range unsafeAgents {
				if _, ok := p.Document().Agents[n]; !ok {
					t.Errorf("the loaded policy has no agent %q", n)
				}
			}
			_, err = policy.LoadVerified(path, pub)
			if c.key == nil {
				if !errors.Is(err, policy.ErrSignature) {
					t.Errorf("LoadVerified of the unsigned policy = %v, want a signature refusal", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("policy.LoadVerified refuses the escaped signed policy: %v", err)
			}
			otherPub, _ := fixedPair(8)
			if _, err := policy.LoadVerified(path, otherPub); !errors.Is(err, policy.ErrSignature) {
				t.Errorf("LoadVerified with another key = %v, want a signature refusal", err)
			}
			plainSigned, err := policy.Parse("plain", plain)
			if err != nil {
				t.Fatal(err)
			}
			if *p.Document().Signature != *plainSigned.Document().Signature {
				t.Errorf("signatures differ: %+v, %+v", *p.Document().Signature, *plainSigned.Document().Signature)
			}
		})
	}
}

// TestWriteKeepsCleanPoliciesAsMarshalWrites: for every golden policy,
// none of whose strings holds a character to escape, Write gives
// want.json byte for byte: escaping changes nothing, and no golden
// digest, for a policy that needs none.
func TestWriteKeepsCleanPoliciesAsMarshalWrites(t *testing.T) {
	for _, dir := range compileCases(t) {
		want, err := os.ReadFile(filepath.Join(dir, "want.json"))
		if err != nil {
			t.Fatal(err)
		}
		p, err := policy.Parse("want.json", want)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		out, err := compile.Write(p.Document(), nil)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		if !bytes.Equal(out, want) {
			t.Errorf("%s: Write does not give want.json", dir)
		}
	}
}

// fixedPair is a key pair made from a fixed seed, so that signatures are
// the same run to run (Ed25519 signatures are deterministic).
func fixedPair(seed byte) (ed25519.PublicKey, ed25519.PrivateKey) {
	priv := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{seed}, ed25519.SeedSize))
	return priv.Public().(ed25519.PublicKey), priv
}

// keyFiles is the private and public key files kokua-compile keygen
// writes, for the pair made from seed.
func keyFiles(t *testing.T, seed byte) (privPEM, pubPEM []byte) {
	t.Helper()
	pub, priv := fixedPair(seed)
	privPEM, err := policy.EncodePrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	pubPEM, err = policy.EncodePublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return privPEM, pubPEM
}
