package compile

import (
	"crypto/ed25519"
	"fmt"

	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/policy"
)

// maxBytes is policy.MaxBytes, the size over which every runtime refuses
// a policy; tests lower it.
var maxBytes = policy.MaxBytes

// Write checks a compiled document as the runtime will, and writes it as
// kokua-compile does: policy.Marshal, or policy.MarshalSigned with key
// when key is not nil, with printable.JSON applied.
//
// The policy is printed on terminals (kokua-compile without -o, cat, a
// diff in review) and holds names from the config, which may carry DEL,
// C1 controls or bidirectional overrides that encoding/json leaves raw
// (issue 13, Must 3): those are written as \u escapes instead. The
// values are the same, and so are the canonical form, which undoes every
// escape, the digest and the signature: a policy without such characters
// is byte for byte what policy.Marshal writes, and one with them loads and
// verifies as the unescaped bytes would.
//
// It refuses, with the reason, a document that policy.Parse would refuse:
// one that fails Validate (a spec_bytes over policy.MaxSpecBytes from the
// manifest, for instance) or whose bytes, escapes included, are over
// policy.MaxBytes, so that kokua-compile never writes a policy no runtime
// loads.
func Write(doc *policy.Document, key ed25519.PrivateKey) ([]byte, error) {
	if err := doc.Validate(); err != nil {
		return nil, fmt.Errorf("no runtime would load its policy: %w", err)
	}
	var out []byte
	var err error
	if key != nil {
		out, err = policy.MarshalSigned(doc, key)
	} else {
		out, err = policy.Marshal(doc)
	}
	if err != nil {
		return nil, err
	}
	out = printable.JSON(out)
	if len(out) > maxBytes {
		return nil, fmt.Errorf("no runtime would load its policy: it is %d bytes (%.1f MiB), over the %d MiB a runtime reads (policy.MaxBytes)",
			len(out), float64(len(out))/(1<<20), policy.MaxBytes>>20)
	}
	return out, nil
}
