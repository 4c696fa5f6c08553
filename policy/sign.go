package policy

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
)

// ErrSignature is the refusal of LoadVerified and ParseVerified for a
// policy that is not signed, is signed by another key, or whose signature
// does not verify.
var ErrSignature = errors.New("the policy's signature does not verify")

// Signature is a policy's signature: the Ed25519 signature, by the key
// KeyID names, of SignedMessage(digest). The digest covers the canonical
// form, which leaves the digest and the signature out, so the signature
// covers every other byte of content; a verifier checks the digest too.
type Signature struct {
	// Ed25519 is the 64-byte signature in standard base64 with padding.
	Ed25519 string `json:"ed25519"`
	// KeyID names the key: KeyID of its public key.
	KeyID string `json:"key_id"`
}

// signaturePrefix starts the message a signature signs, so that a key
// used for policies signs nothing that means something else.
const signaturePrefix = "kokua-policy signature v1\n"

// SignedMessage is what a policy's signature signs: the ASCII bytes of
// "kokua-policy signature v1", a newline, then the digest as the policy
// writes it ("sha256:" and 64 lowercase hex digits).
func SignedMessage(digest string) []byte { return []byte(signaturePrefix + digest) }

// KeyID names a public key: "ed25519:" and the first 16 hex digits of the
// SHA-256 of its 32 bytes.
func KeyID(pub ed25519.PublicKey) string {
	sum := sha256.Sum256(pub)
	return "ed25519:" + hex.EncodeToString(sum[:8])
}

// MarshalSigned is Marshal with the document's digest signed by key: the
// signature member comes after the digest.
func MarshalSigned(d *Document, key ed25519.PrivateKey) ([]byte, error) {
	if len(key) != ed25519.PrivateKeySize {
		return nil, errors.New("the signing key is not an Ed25519 private key")
	}
	d.Signature = nil
	return marshal(d, func(digest string) (*Signature, error) {
		pub, ok := key.Public().(ed25519.PublicKey)
		if !ok {
			return nil, errors.New("the signing key has no Ed25519 public key")
		}
		return &Signature{
			Ed25519: base64.StdEncoding.EncodeToString(ed25519.Sign(key, SignedMessage(digest))),
			KeyID:   KeyID(pub),
		}, nil
	})
}

// LoadVerified is Load for a host that accepts only policies signed with
// key: one that is not signed, is signed by another key, or whose
// signature does not verify is refused with ErrSignature, after the
// checks of Load that come before the shape (size, JSON, version, digest)
// and before any of the rest.
func LoadVerified(path string, key ed25519.PublicKey) (*Policy, error) {
	data, err := read(path)
	if err != nil {
		return nil, err
	}
	return ParseVerified(path, data, key)
}

// ParseVerified is Parse for a host that accepts only policies signed
// with key (see LoadVerified).
func ParseVerified(source string, data []byte, key ed25519.PublicKey) (*Policy, error) {
	if len(key) != ed25519.PublicKeySize {
		return nil, &LoadError{Source: source, Reason: "the verify key is not an Ed25519 public key", Err: ErrSignature}
	}
	return parse(source, data, key)
}

// verify checks a sealed document's signature against key; it returns
// why it does not verify, or "".
func verify(s sealed, key ed25519.PublicKey) string {
	if s.signature == nil {
		return "it is not signed, and a signed policy is required (kokua-compile --sign KEY writes one)"
	}
	var sig Signature
	dec := json.NewDecoder(bytes.NewReader(s.signature))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&sig); err != nil || sig.KeyID == "" || sig.Ed25519 == "" {
		return "its signature member is not {\"ed25519\": ..., \"key_id\": ...}"
	}
	if want := KeyID(key); sig.KeyID != want {
		return fmt.Sprintf("it is signed by key %s, not by the verify key %s", sig.KeyID, want)
	}
	raw, err := base64.StdEncoding.Strict().DecodeString(sig.Ed25519)
	if err != nil || len(raw) != ed25519.SignatureSize {
		return "its signature is not 64 bytes of standard base64"
	}
	if !ed25519.Verify(key, SignedMessage(s.digest), raw) {
		return fmt.Sprintf("its signature does not verify with key %s: it was not signed by that key, or was changed since", sig.KeyID)
	}
	return ""
}

// checkSignatureShape refuses a signature member that is present but not
// a signature, whether or not the host verifies it.
func checkSignatureShape(s sealed, sig *Signature) string {
	if s.signature == nil {
		return ""
	}
	if sig == nil || sig.KeyID == "" || sig.Ed25519 == "" {
		return "its signature member is not {\"ed25519\": ..., \"key_id\": ...}"
	}
	if raw, err := base64.StdEncoding.Strict().DecodeString(sig.Ed25519); err != nil || len(raw) != ed25519.SignatureSize {
		return "its signature is not 64 bytes of standard base64"
	}
	return ""
}

// The PEM block types of key files: PKCS #8 for a private key and PKIX
// (SubjectPublicKeyInfo) for a public one, the files OpenSSL writes with
// "openssl genpkey -algorithm ed25519" and "openssl pkey -pubout".
const (
	privatePEM = "PRIVATE KEY"
	publicPEM  = "PUBLIC KEY"
)

// The key files' ASN.1 (RFC 8410): PKCS #8's PrivateKeyInfo (RFC 5208)
// holding the 32-byte seed as an OCTET STRING, and PKIX's
// SubjectPublicKeyInfo (RFC 5280) holding the 32-byte key as a BIT
// STRING, each naming the algorithm by its OID alone. They are read with
// encoding/asn1 rather than crypto/x509, which would link package net,
// and so the dynamic loader, into every command that reads a policy.
var oidEd25519 = asn1.ObjectIdentifier{1, 3, 101, 112}

type privateKeyInfo struct {
	Version    int
	Algorithm  pkix.AlgorithmIdentifier
	PrivateKey []byte
}

type publicKeyInfo struct {
	Algorithm pkix.AlgorithmIdentifier
	PublicKey asn1.BitString
}

// EncodePrivateKey writes a private key as a PEM "PRIVATE KEY" block
// holding PKCS #8.
func EncodePrivateKey(key ed25519.PrivateKey) ([]byte, error) {
	if len(key) != ed25519.PrivateKeySize {
		return nil, fmt.Errorf("a private key of %d bytes, not an Ed25519 key's %d", len(key), ed25519.PrivateKeySize)
	}
	seed, err := asn1.Marshal(key.Seed())
	if err != nil {
		return nil, err
	}
	der, err := asn1.Marshal(privateKeyInfo{Algorithm: pkix.AlgorithmIdentifier{Algorithm: oidEd25519}, PrivateKey: seed})
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: privatePEM, Bytes: der}), nil
}

// EncodePublicKey writes a public key as a PEM "PUBLIC KEY" block holding
// PKIX.
func EncodePublicKey(key ed25519.PublicKey) ([]byte, error) {
	if len(key) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("a public key of %d bytes, not an Ed25519 key's %d", len(key), ed25519.PublicKeySize)
	}
	der, err := asn1.Marshal(publicKeyInfo{Algorithm: pkix.AlgorithmIdentifier{Algorithm: oidEd25519},
		PublicKey: asn1.BitString{Bytes: key, BitLength: 8 * len(key)}})
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: publicPEM, Bytes: der}), nil
}

// ParsePrivateKey reads what EncodePrivateKey writes.
func ParsePrivateKey(data []byte) (ed25519.PrivateKey, error) {
	der, err := pemBlock(data, privatePEM)
	if err != nil {
		return nil, err
	}
	var info privateKeyInfo
	if rest, err := asn1.Unmarshal(der, &info); err != nil || len(rest) > 0 || info.Version != 0 {
		return nil, errors.New("not a PKCS #8 private key")
	}
	if err := ed25519Algorithm(info.Algorithm); err != nil {
		return nil, fmt.Errorf("not an Ed25519 private key: %w", err)
	}
	var seed []byte
	if rest, err := asn1.Unmarshal(info.PrivateKey, &seed); err != nil || len(rest) > 0 || len(seed) != ed25519.SeedSize {
		return nil, fmt.Errorf("not an Ed25519 private key: its key is not a %d-byte seed", ed25519.SeedSize)
	}
	return ed25519.NewKeyFromSeed(seed), nil
}

// ParsePublicKey reads what EncodePublicKey writes.
func ParsePublicKey(data []byte) (ed25519.PublicKey, error) {
	der, err := pemBlock(data, publicPEM)
	if err != nil {
		return nil, err
	}
	var info publicKeyInfo
	if rest, err := asn1.Unmarshal(der, &info); err != nil || len(rest) > 0 {
		return nil, errors.New("not a PKIX public key")
	}
	if err := ed25519Algorithm(info.Algorithm); err != nil {
		return nil, fmt.Errorf("not an Ed25519 public key: %w", err)
	}
	if info.PublicKey.BitLength != 8*ed25519.PublicKeySize {
		return nil, fmt.Errorf("not an Ed25519 public key: its key is not %d bytes", ed25519.PublicKeySize)
	}
	return ed25519.PublicKey(info.PublicKey.Bytes), nil
}

// ed25519Algorithm checks that a key's algorithm is Ed25519, which RFC
// 8410 writes with no parameters.
func ed25519Algorithm(a pkix.AlgorithmIdentifier) error {
	switch {
	case !a.Algorithm.Equal(oidEd25519):
		return fmt.Errorf("its algorithm is OID %s, not Ed25519's %s", a.Algorithm, oidEd25519)
	case len(a.Parameters.FullBytes) > 0:
		return errors.New("its algorithm has parameters, which Ed25519's has not")
	}
	return nil
}

// maxKeyFile bounds a key file: a PEM Ed25519 key is about 120 bytes.
const maxKeyFile = 64 << 10

// ReadPublicKey reads a public key file (ParsePublicKey).
func ReadPublicKey(path string) (ed25519.PublicKey, error) {
	data, err := readKey(path)
	if err != nil {
		return nil, err
	}
	k, err := ParsePublicKey(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return k, nil
}

// ReadPrivateKey reads a private key file (ParsePrivateKey).
func ReadPrivateKey(path string) (ed25519.PrivateKey, error) {
	data, err := readKey(path)
	if err != nil {
		return nil, err
	}
	k, err := ParsePrivateKey(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return k, nil
}

func readKey(path string) ([]byte, error) {
	data, err := readRegular(path, maxKeyFile)
	var pe *fs.PathError
	switch {
	case errors.As(err, &pe) && pe.Path == path:
		return nil, fmt.Errorf("%s: %w", path, pe.Err)
	case err != nil:
		return nil, fmt.Errorf("%s: %w", path, err)
	case len(data) > maxKeyFile:
		return nil, fmt.Errorf("%s: larger than a key file", path)
	}
	return data, nil
}

func pemBlock(data []byte, typ string) ([]byte, error) {
	b, rest := pem.Decode(data)
	switch {
	case b == nil:
		return nil, fmt.Errorf("not a PEM file: want a %q block", typ)
	case b.Type == privatePEM && typ == publicPEM:
		// The easy slip: the key kokua-compile keygen wrote first.
		return nil, fmt.Errorf("a PEM %q block, not %q: this is a private key; give its public key, the .pub file keygen wrote beside it", b.Type, typ)
	case b.Type != typ:
		return nil, fmt.Errorf("a PEM %q block, not %q", b.Type, typ)
	case len(bytes.TrimSpace(rest)) > 0:
		return nil, errors.New("more than one PEM block")
	}
	return b.Bytes, nil
}
