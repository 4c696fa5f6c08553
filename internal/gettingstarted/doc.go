// Package gettingstarted holds the test that runs docs/getting-started.md
// from top to bottom in an empty folder, with the three commands built
// from this checkout, and holds every output the page shows to what the
// commands print. It has no code of its own.
package gettingstarted
