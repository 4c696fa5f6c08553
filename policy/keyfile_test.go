package policy_test

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	cryptorand "crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/pem"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/policy"
)

// TestKeyFilesAsX509 holds the key files, which policy reads and writes
// with encoding/asn1, to crypto/x509 as the oracle: for keys from many
// seeds, EncodePrivateKey and EncodePublicKey write the bytes x509
// marshals, and what x509 marshals reads back as the same key.
func TestKeyFilesAsX509(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 24))
	for range 200 {
		var seed [32]byte
		for i := range seed {
			seed[i] = byte(r.Uint32())
		}
		pub, priv := fixedSeed(seed[:])
		wantPriv, err := x509.MarshalPKCS8PrivateKey(priv)
		if err != nil {
			t.Fatal(err)
		}
		wantPub, err := x509.MarshalPKIXPublicKey(pub)
		if err != nil {
			t.Fatal(err)
		}
		gotPriv, err := policy.EncodePrivateKey(priv)
		if err != nil {
			t.Fatal(err)
		}
		gotPub, err := policy.EncodePublicKey(pub)
		if err != nil {
			t.Fatal(err)
		}
		if der := block(t, gotPriv); !bytes.Equal(der, wantPriv) {
			t.Fatalf("private key %x: wrote %x, x509 writes %x", seed, der, wantPriv)
		}
		if der := block(t, gotPub); !bytes.Equal(der, wantPub) {
			t.Fatalf("public key %x: wrote %x, x509 writes %x", seed, der, wantPub)
		}
		k, err := policy.ParsePrivateKey(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: wantPriv}))
		if err != nil || !k.Equal(priv) {
			t.Fatalf("x509's private key %x read back as %x: %v", seed, k, err)
		}
		p, err := policy.ParsePublicKey(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: wantPub}))
		if err != nil || !p.Equal(pub) {
			t.Fatalf("x509's public key %x read back as %x: %v", seed, p, err)
		}
	}
}

// TestKeyFilesRefuseOthers: a key of another algorithm, a key with
// bytes after it, a truncated one, or an Ed25519 one of the wrong size is
// refused with a message saying which.
func TestKeyFilesRefuseOthers(t *testing.T) {
	ec, err := ecdsa.GenerateKey(elliptic.P256(), cryptorand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	ecPriv, _ := x509.MarshalPKCS8PrivateKey(ec)
	ecPub, _ := x509.MarshalPKIXPublicKey(ec.Public())
	pub, priv := fixedKey(7)
	okPriv, _ := x509.MarshalPKCS8PrivateKey(priv)
	okPub, _ := x509.MarshalPKIXPublicKey(pub)
	// 30 2a (30 05 06 03 2b6570) 03 21 00 <32 bytes>: the SEQUENCE and its
	// BIT STRING each one byte shorter, and the key's last byte dropped.
	shortPub := bytes.Clone(okPub)
	shortPub[1]--
	shortPub[10]--
	// A PKCS #8 of version 1, an algorithm with parameters, and a seed of
	// 31 bytes, each written by hand.
	seed, _ := asn1.Marshal(bytes.Repeat([]byte{7}, 32))
	shortSeed, _ := asn1.Marshal(bytes.Repeat([]byte{7}, 31))
	ed := pkix.AlgorithmIdentifier{Algorithm: asn1.ObjectIdentifier{1, 3, 101, 112}}
	withParams := pkix.AlgorithmIdentifier{Algorithm: ed.Algorithm, Parameters: asn1.NullRawValue}
	type info struct {
		Version    int
		Algorithm  pkix.AlgorithmIdentifier
		PrivateKey []byte
	}
	version1, _ := asn1.Marshal(info{Version: 1, Algorithm: ed, PrivateKey: seed})
	params, _ := asn1.Marshal(info{Algorithm: withParams, PrivateKey: seed})
	short, _ := asn1.Marshal(info{Algorithm: ed, PrivateKey: shortSeed})
	for _, c := range []struct {
		name, kind string
		der        []byte
		want       string
	}{
		{"a PKCS #8 of version 1", "PRIVATE KEY", version1, "not a PKCS #8 private key"},
		{"an algorithm with parameters", "PRIVATE KEY", params, "its algorithm has parameters"},
		{"a seed of 31 bytes", "PRIVATE KEY", short, "its key is not a 32-byte seed"},
		{"an ECDSA private key", "PRIVATE KEY", ecPriv, "not an Ed25519 private key: its algorithm is OID 1.2.840.10045.2.1"},
		{"an ECDSA public key", "PUBLIC KEY", ecPub, "not an Ed25519 public key: its algorithm is OID 1.2.840.10045.2.1"},
		{"bytes after a private key", "PRIVATE KEY", append(bytes.Clone(okPriv), 0), "not a PKCS #8 private key"},
		{"bytes after a public key", "PUBLIC KEY", append(bytes.Clone(okPub), 0), "not a PKIX public key"},
		{"a truncated private key", "PRIVATE KEY", okPriv[:len(okPriv)-1], "not a PKCS #8 private key"},
		{"a public key of 31 bytes", "PUBLIC KEY", shortPub[:len(shortPub)-1], "its key is not 32 bytes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			data := pem.EncodeToMemory(&pem.Block{Type: c.kind, Bytes: c.der})
			var err error
			if c.kind == "PRIVATE KEY" {
				_, err = policy.ParsePrivateKey(data)
			} else {
				_, err = policy.ParsePublicKey(data)
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want an error saying %q", err, c.want)
			}
		})
	}
}

func fixedSeed(seed []byte) (ed25519.PublicKey, ed25519.PrivateKey) {
	k := ed25519.NewKeyFromSeed(seed)
	return k.Public().(ed25519.PublicKey), k
}

// TestReadKeyFiles: key files written with the Encode functions read back
// through ReadPublicKey and ReadPrivateKey as the same keys.
func TestReadKeyFiles(t *testing.T) {
	pub, priv := fixedKey(9)
	dir := t.TempDir()
	pubPEM, err := policy.EncodePublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	privPEM, err := policy.EncodePrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	pubFile, privFile := filepath.Join(dir, "key.pub"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(pubFile, pubPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(privFile, privPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	if k, err := policy.ReadPublicKey(pubFile); err != nil || !k.Equal(pub) {
		t.Errorf("ReadPublicKey: %x, %v", k, err)
	}
	if k, err := policy.ReadPrivateKey(privFile); err != nil || !k.Equal(priv) {
		t.Errorf("ReadPrivateKey: %v", err)
	}
}

// TestEncodeRefusesWrongSizes: a key of the wrong length is not written.
func TestEncodeRefusesWrongSizes(t *testing.T) {
	if _, err := policy.EncodePrivateKey(make(ed25519.PrivateKey, 32)); err == nil {
		t.Error("a 32-byte private key was written")
	}
	if _, err := policy.EncodePublicKey(make(ed25519.PublicKey, 31)); err == nil {
		t.Error("a 31-byte public key was written")
	}
}

// block is the DER of a PEM file's one block.
func block(t *testing.T, data []byte) []byte {
	t.Helper()
	b, rest := pem.Decode(data)
	if b == nil || len(rest) > 0 {
		t.Fatalf("not one PEM block: %q", data)
	}
	return b.Bytes
}
