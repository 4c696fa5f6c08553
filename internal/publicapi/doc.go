// Package publicapi holds the tests that keep the API of the public
// packages (lint, compile, policy, server, diag, kokua) free of the
// module's internal types, so that a host outside the module can call
// every exported function and use every exported type, and free of
// exported maps, slices and arrays, which a host could change under every
// other package; and each documented for a host, with a runnable example.
// It has no code of its own.
package publicapi
