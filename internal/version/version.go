// Package version holds the one version of the kokua-policy tools: the
// version the SARIF output gives its driver and the compiler writes into
// every policy.
package version

// Version is the version of kokua-lint, kokua-compile and kokua-run.
const Version = "0.1.0"
