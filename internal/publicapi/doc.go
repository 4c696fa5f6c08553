// Package publicapi holds the test that keeps the API of the public
// packages (lint, compile, policy, server, diag, kokua) free of the
// module's internal types, so that a host outside the module can call
// every exported function and use every exported type. It has no code of
// its own.
package publicapi
